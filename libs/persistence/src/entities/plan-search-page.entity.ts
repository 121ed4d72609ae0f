import { Column, Entity, PrimaryColumn } from 'typeorm';
import { PricingRecord, maxLengthOf } from '#app/domain';

/**
 * The version the plan search holds for each pricing page: its latest extraction, which an
 * older one arriving later must not replace. A page whose latest extraction has no plan is here
 * all the same.
 */
@Entity('plan_search_pages')
export class PlanSearchPageEntity {
  @PrimaryColumn('varchar', { name: 'page_id', length: 36 }) pageId!: string;
  @Column('varchar', { name: 'company_slug', length: maxLengthOf(PricingRecord, 'company_slug') })
  companySlug!: string;
  @Column('varchar', { length: 8 }) version!: string;
}
