import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';
import { RECORD_BOUNDS } from '#app/domain';

// Record fields are stored as sent, so their columns take the fields' declared lengths (a bound
// raised without its migration fails test/schema-drift.test.ts).
const { page } = RECORD_BOUNDS;

/** Pricing pages read model, with the composite slug computed once at ingestion. */
@Entity('pricing_pages')
@Unique('uq_pricing_pages_composite_slug', ['compositeSlug'])
@Unique('uq_pricing_pages_company_page', ['companySlug', 'pageSlug'])
export class PricingPageEntity {
  @PrimaryColumn('varchar', { length: 36 }) id!: string;
  @Column('varchar', { name: 'company_slug', length: page.company_slug.maxLength })
  companySlug!: string;
  @Column('varchar', { name: 'page_slug', length: page.page_slug.maxLength }) pageSlug!: string;
  @Column('varchar', { name: 'composite_slug', length: 400 }) compositeSlug!: string;
  @Column('varchar', { name: 'pricing_page_url', length: page.pricing_page_url.maxLength })
  pricingPageUrl!: string;
  @Column('varchar', { name: 'created_at', length: 32 }) createdAt!: string;
}
