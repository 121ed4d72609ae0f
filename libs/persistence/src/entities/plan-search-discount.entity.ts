import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { DiscountInput, maxLengthOf } from '#app/domain';

/** One discount category of a plan in the plan search (the discount_category filter). */
@Entity('plan_search_discounts')
@Index('ix_plan_search_discounts_category', ['discountCategory', 'pageId', 'planIndex'])
export class PlanSearchDiscountEntity {
  @PrimaryColumn('varchar', { name: 'page_id', length: 36 }) pageId!: string;
  @PrimaryColumn('integer', { name: 'plan_index' }) planIndex!: number;
  @PrimaryColumn('integer', { name: 'discount_index' }) discountIndex!: number;
  @Column('varchar', {
    name: 'discount_category',
    length: maxLengthOf(DiscountInput, 'discount_category'),
  })
  discountCategory!: string;
}
