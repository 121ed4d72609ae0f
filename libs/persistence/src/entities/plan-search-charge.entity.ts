import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { RECORD_BOUNDS } from '#app/domain';

const { company, pricing } = RECORD_BOUNDS;
const charge = pricing.plans.items.charges.items;

/**
 * One charge of a plan in the plan search, with the fields its charge filters compare; all of a
 * request's charge filters hold on one row. The version dates the exchange rate it converts at.
 * The company's slug, category and band are its plan's, repeated so that a charge filter can be
 * read from the charges of the companies the page filters select, from an index alone.
 */
@Entity('plan_search_charges')
@Index('ix_plan_search_charges_company', ['companySlug'])
@Index('ix_plan_search_charges_filter', [
  'category',
  'employees',
  'pageId',
  'planIndex',
  'billing',
  'chargeType',
  'modality',
  'usageType',
  'currency',
  'monthlyEquivalent',
  'version',
])
export class PlanSearchChargeEntity {
  @PrimaryColumn('varchar', { name: 'page_id', length: 36 }) pageId!: string;
  @PrimaryColumn('integer', { name: 'plan_index' }) planIndex!: number;
  @PrimaryColumn('integer', { name: 'charge_index' }) chargeIndex!: number;
  @Column('varchar', { name: 'company_slug', length: pricing.company_slug.maxLength })
  companySlug!: string;
  @Column('varchar', { length: 64 }) category!: string;
  @Column('varchar', { length: company.employees.maxLength }) employees!: string;
  @Column('varchar', { length: charge.billing.maxLength }) billing!: string;
  @Column('varchar', { name: 'charge_type', length: charge.charge_type.maxLength })
  chargeType!: string;
  /** The pricing metric's modality; null for a charge without a metric. */
  @Column('varchar', {
    length: charge.pricing_metric.fields.modality.maxLength,
    nullable: true,
  })
  modality!: string | null;
  @Column('varchar', {
    name: 'usage_type',
    length: charge.usage_type.maxLength,
    nullable: true,
  })
  usageType!: string | null;
  @Column('varchar', { length: 3 }) currency!: string;
  /** Unrounded, in the charge's own currency; null when it has none. */
  @Column('double precision', { name: 'monthly_equivalent', nullable: true })
  monthlyEquivalent!: number | null;
  @Column('varchar', { length: 8 }) version!: string;
}
