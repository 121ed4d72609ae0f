import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';

/** Pricing pages read model, with the composite slug computed once at ingestion. */
@Entity('pricing_pages')
@Unique('uq_pricing_pages_composite_slug', ['compositeSlug'])
@Unique('uq_pricing_pages_company_page', ['companySlug', 'pageSlug'])
export class PricingPageEntity {
  @PrimaryColumn('varchar', { length: 36 }) id!: string;
  @Column('varchar', { name: 'company_slug', length: 255 }) companySlug!: string;
  @Column('varchar', { name: 'page_slug', length: 100 }) pageSlug!: string;
  @Column('varchar', { name: 'composite_slug', length: 400 }) compositeSlug!: string;
  @Column('varchar', { name: 'pricing_page_url', length: 2048 }) pricingPageUrl!: string;
  @Column('varchar', { name: 'created_at', length: 32 }) createdAt!: string;
}
