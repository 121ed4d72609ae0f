import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import {
  ChargeInput,
  CompanyRecord,
  PricingMetricInput,
  PricingRecord,
  maxLengthOf,
} from '#app/domain';

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
  @Column('varchar', { name: 'company_slug', length: maxLengthOf(PricingRecord, 'company_slug') })
  companySlug!: string;
  @Column('varchar', { length: 64 }) category!: string;
  @Column('varchar', { length: maxLengthOf(CompanyRecord, 'employees') }) employees!: string;
  @Column('varchar', { length: maxLengthOf(ChargeInput, 'billing') }) billing!: string;
  @Column('varchar', { name: 'charge_type', length: maxLengthOf(ChargeInput, 'charge_type') })
  chargeType!: string;
  /** The pricing metric's modality; null for a charge without a metric. */
  @Column('varchar', {
    length: maxLengthOf(PricingMetricInput, 'modality'),
    nullable: true,
  })
  modality!: string | null;
  @Column('varchar', {
    name: 'usage_type',
    length: maxLengthOf(ChargeInput, 'usage_type'),
    nullable: true,
  })
  usageType!: string | null;
  @Column('varchar', { length: 3 }) currency!: string;
  /** Unrounded, in the charge's own currency; null when it has none. */
  @Column('double precision', { name: 'monthly_equivalent', nullable: true })
  monthlyEquivalent!: number | null;
  @Column('varchar', { length: 8 }) version!: string;
}
