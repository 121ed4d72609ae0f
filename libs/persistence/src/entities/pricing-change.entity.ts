import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { PricingRecord, maxLengthOf, type Significance } from '#app/domain';

// Record fields are stored as sent, so their columns take the fields' declared lengths (a bound
// raised without its migration fails test/schema-drift.test.ts).

/**
 * One pricing change of the change feed. The primary key is the feed position: the extraction
 * event's (transaction id, seq), the order projectors read the log in, then the change's index.
 */
@Entity('pricing_changes')
@Index('ix_pricing_changes_company', [
  'companySlug',
  'eventTransactionId',
  'eventSeq',
  'changeIndex',
])
@Index('ix_pricing_changes_event_type', [
  'eventType',
  'eventTransactionId',
  'eventSeq',
  'changeIndex',
])
// Partial indexes of the significance filter (migration 1764900000000), which TypeORM would
// compare by a text of their conditions it does not keep: it must leave them be.
@Index('ix_pricing_changes_moderate', { synchronize: false })
@Index('ix_pricing_changes_major', { synchronize: false })
export class PricingChangeEntity {
  /** Bigints as text: PostgreSQL's transaction ids can outgrow a JavaScript number. */
  @PrimaryColumn('bigint', { name: 'event_transaction_id' }) eventTransactionId!: string;
  @PrimaryColumn('bigint', { name: 'event_seq' }) eventSeq!: string;
  @PrimaryColumn('integer', { name: 'change_index' }) changeIndex!: number;
  @Column('varchar', { name: 'company_slug', length: maxLengthOf(PricingRecord, 'company_slug') })
  companySlug!: string;
  @Column('varchar', { name: 'page_slug', length: maxLengthOf(PricingRecord, 'page_slug') })
  pageSlug!: string;
  @Column('varchar', { name: 'composite_slug', length: 400 }) compositeSlug!: string;
  /** Null for a page's first extraction. */
  @Column('varchar', { name: 'from_version', length: 8, nullable: true }) fromVersion!:
    string | null;
  @Column('varchar', { name: 'to_version', length: 8 }) toVersion!: string;
  @Column('varchar', { name: 'event_type', length: 32 }) eventType!: string;
  @Column('text') plan!: string;
  @Column('text', { name: 'charge_billing', nullable: true }) chargeBilling!: string | null;
  @Column('text', { name: 'charge_display_name', nullable: true }) chargeDisplayName!:
    string | null;
  @Column('text', { nullable: true }) discount!: string | null;
  @Column('varchar', { length: 64, nullable: true }) field!: string | null;
  /** JSON text (`null` included). */
  @Column('text', { name: 'old_value' }) oldValue!: string;
  @Column('text', { name: 'new_value' }) newValue!: string;
  @Column('varchar', { name: 'recorded_at', length: 32 }) recordedAt!: string;
  /** A price change's size (ChangeWeight); null for every other change. */
  @Column('double precision', { name: 'old_monthly_equivalent', nullable: true })
  oldMonthlyEquivalent!: number | null;
  @Column('double precision', { name: 'new_monthly_equivalent', nullable: true })
  newMonthlyEquivalent!: number | null;
  @Column('double precision', { name: 'change_percent', nullable: true }) changePercent!:
    number | null;
  /**
   * minor, moderate or major. Nullable only for SQLite's sake (see migration 1764900000000):
   * every row has one.
   */
  @Column('varchar', { length: 8, nullable: true }) significance!: Significance;
}
