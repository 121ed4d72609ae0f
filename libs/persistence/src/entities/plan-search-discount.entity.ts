import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { RECORD_BOUNDS } from '#app/domain';

const discount = RECORD_BOUNDS.pricing.plans.items.discounts.items;

/** One discount category of a plan in the plan search (the discount_category filter). */
@Entity('plan_search_discounts')
@Index('ix_plan_search_discounts_category', ['discountCategory', 'pageId', 'planIndex'])
export class PlanSearchDiscountEntity {
  @PrimaryColumn('varchar', { name: 'page_id', length: 36 }) pageId!: string;
  @PrimaryColumn('integer', { name: 'plan_index' }) planIndex!: number;
  @PrimaryColumn('integer', { name: 'discount_index' }) discountIndex!: number;
  @Column('varchar', { name: 'discount_category', length: discount.discount_category.maxLength })
  discountCategory!: string;
}
