import { Column, Entity, Index, PrimaryColumn, Unique } from 'typeorm';
import { PricingRecord, maxLengthOf } from '#app/domain';

// Record fields are stored as sent, so their columns take the fields' declared lengths (a bound
// raised without its migration fails test/schema-drift.test.ts).

/**
 * One ready-to-serve pricing document (JSON text) per page and version, with its extraction
 * event's position in projection order: the change feed's, by which the export reads them.
 */
@Entity('pricing_snapshots')
@Unique('uq_pricing_snapshots_page_version', ['pageId', 'version'])
@Index('uq_pricing_snapshots_position', ['eventTransactionId', 'eventSeq'], { unique: true })
export class PricingSnapshotEntity {
  @PrimaryColumn('varchar', { length: 36 }) id!: string;
  @Column('varchar', { name: 'page_id', length: 36 }) pageId!: string;
  @Column('varchar', { name: 'company_slug', length: maxLengthOf(PricingRecord, 'company_slug') })
  companySlug!: string;
  @Column('varchar', { name: 'page_slug', length: maxLengthOf(PricingRecord, 'page_slug') })
  pageSlug!: string;
  @Column('varchar', { length: 8 }) version!: string;
  @Column('text') document!: string;
  @Column('varchar', { name: 'created_at', length: 32 }) createdAt!: string;
  /**
   * Bigints as text, as in the change feed. Nullable only for SQLite's sake (see migration
   * 1764800000000): the projector always writes them.
   */
  @Column('bigint', { name: 'event_transaction_id', nullable: true }) eventTransactionId!:
    string | null;
  @Column('bigint', { name: 'event_seq', nullable: true }) eventSeq!: string | null;
}
