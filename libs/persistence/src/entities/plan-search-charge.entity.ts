import { Column, Entity, PrimaryColumn } from 'typeorm';
import { RECORD_BOUNDS } from '#app/domain';

const charge = RECORD_BOUNDS.pricing.plans.items.charges.items;

/**
 * One charge of a plan in the plan search, with the fields its charge filters compare; all of a
 * request's charge filters hold on one row. The version dates the exchange rate it converts at.
 */
@Entity('plan_search_charges')
export class PlanSearchChargeEntity {
  @PrimaryColumn('varchar', { name: 'page_id', length: 36 }) pageId!: string;
  @PrimaryColumn('integer', { name: 'plan_index' }) planIndex!: number;
  @PrimaryColumn('integer', { name: 'charge_index' }) chargeIndex!: number;
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
