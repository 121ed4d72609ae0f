import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';
import { PageRecord, maxLengthOf } from '#app/domain';

// Record fields are stored as sent, so their columns take the fields' declared lengths (a bound
// raised without its migration fails test/schema-drift.test.ts).

/** Pricing pages read model, with the composite slug computed once at ingestion. */
@Entity('pricing_pages')
@Unique('uq_pricing_pages_composite_slug', ['compositeSlug'])
@Unique('uq_pricing_pages_company_page', ['companySlug', 'pageSlug'])
export class PricingPageEntity {
  @PrimaryColumn('varchar', { length: 36 }) id!: string;
  @Column('varchar', { name: 'company_slug', length: maxLengthOf(PageRecord, 'company_slug') })
  companySlug!: string;
  @Column('varchar', { name: 'page_slug', length: maxLengthOf(PageRecord, 'page_slug') })
  pageSlug!: string;
  @Column('varchar', { name: 'composite_slug', length: 400 }) compositeSlug!: string;
  @Column('varchar', {
    name: 'pricing_page_url',
    length: maxLengthOf(PageRecord, 'pricing_page_url'),
  })
  pricingPageUrl!: string;
  @Column('varchar', { name: 'created_at', length: 32 }) createdAt!: string;
}
