import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { RECORD_BOUNDS } from '#app/domain';

// Record fields are stored as sent, so their columns take the fields' declared lengths (a bound
// raised without its migration fails test/schema-drift.test.ts).
const { pricing } = RECORD_BOUNDS;

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
export class PricingChangeEntity {
  /** Bigints as text: PostgreSQL's transaction ids can outgrow a JavaScript number. */
  @PrimaryColumn('bigint', { name: 'event_transaction_id' }) eventTransactionId!: string;
  @PrimaryColumn('bigint', { name: 'event_seq' }) eventSeq!: string;
  @PrimaryColumn('integer', { name: 'change_index' }) changeIndex!: number;
  @Column('varchar', { name: 'company_slug', length: pricing.company_slug.maxLength })
  companySlug!: string;
  @Column('varchar', { name: 'page_slug', length: pricing.page_slug.maxLength })
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
}
