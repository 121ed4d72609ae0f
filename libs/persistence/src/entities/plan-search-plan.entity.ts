import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CompanyRecord, PlanInput, PricingRecord, maxLengthOf } from '#app/domain';

/**
 * One plan of a page's latest extraction, with what the plan search filters and sorts it by:
 * its company's profile (kept up to date by CompanyProfileChanged), the page's number of plans
 * and the plan's lowest monthly equivalent. `plan` is the plan as the answer gives it (JSON
 * text, each charge with its monthly equivalent), so a page of results is sent as stored.
 */
@Entity('plan_search_plans')
@Index('ix_plan_search_plans_company', ['companySlug'])
@Index('ix_plan_search_plans_name', ['companyNameKey', 'compositeSlug'])
// Every column a search within categories and bands filters, sorts or joins on (the migration).
@Index('ix_plan_search_plans_filter', [
  'category',
  'employees',
  'companyNameKey',
  'compositeSlug',
  'internalName',
  'planIndex',
  'pageId',
  'monthlyMissing',
  'lowestMonthly',
  'addOn',
  'freeTier',
  'planCount',
])
@Index('ix_plan_search_plans_monthly', ['monthlyMissing', 'lowestMonthly', 'compositeSlug'])
// Descending in its middle column, which TypeORM cannot describe: it must leave it be.
@Index('ix_plan_search_plans_monthly_desc', { synchronize: false })
export class PlanSearchPlanEntity {
  @PrimaryColumn('varchar', { name: 'page_id', length: 36 }) pageId!: string;
  /** The plan's place in its extraction. */
  @PrimaryColumn('integer', { name: 'plan_index' }) planIndex!: number;
  @Column('varchar', { name: 'composite_slug', length: 400 }) compositeSlug!: string;
  @Column('varchar', { name: 'company_slug', length: maxLengthOf(PricingRecord, 'company_slug') })
  companySlug!: string;
  @Column('varchar', { name: 'company_name', length: maxLengthOf(CompanyRecord, 'name') })
  companyName!: string;
  /**
   * The name in lower case, the sort's key: a column rather than LOWER(name), which folds ASCII
   * alone on SQLite. Twice the name's length: lower-casing can double a character (İ).
   */
  @Column('varchar', { name: 'company_name_key', length: 2 * maxLengthOf(CompanyRecord, 'name') })
  companyNameKey!: string;
  @Column('varchar', { length: 64 }) category!: string;
  @Column('varchar', { length: maxLengthOf(CompanyRecord, 'employees') }) employees!: string;
  @Column('varchar', { length: 8 }) version!: string;
  @Column('varchar', { name: 'internal_name', length: maxLengthOf(PlanInput, 'internal_name') })
  internalName!: string;
  @Column('boolean', { name: 'add_on' }) addOn!: boolean;
  /** A charge billed freemium or priced 0. */
  @Column('boolean', { name: 'free_tier' }) freeTier!: boolean;
  /** How many plans the page's extraction has. */
  @Column('integer', { name: 'plan_count' }) planCount!: number;
  /** The lowest monthly equivalent of its charges, unrounded; null when none has one. */
  @Column('double precision', { name: 'lowest_monthly', nullable: true }) lowestMonthly!:
    number | null;
  /** lowest_monthly is null: such plans sort last in both directions, on either database. */
  @Column('boolean', { name: 'monthly_missing' }) monthlyMissing!: boolean;
  @Column('text') plan!: string;
}
