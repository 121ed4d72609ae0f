import type { Significance } from '#app/domain';
import { Column, Entity, Index, PrimaryColumn, type ValueTransformer } from 'typeorm';

/** A list of strings stored as JSON text; null (no filter) stays null. */
const JSON_LIST: ValueTransformer = {
  to: (list: string[] | null | undefined) => (list == null ? null : JSON.stringify(list)),
  from: (text: string | null) => (text === null ? null : (JSON.parse(text) as string[])),
};

/**
 * A URL that receives pricing changes, owned by the API key that registered it. The secret
 * signs deliveries, so it is kept as it is (unlike an API key, only ever stored as a hash).
 */
@Entity('webhooks')
@Index('ix_webhooks_api_key', ['apiKeyId', 'createdAt'])
export class WebhookEntity {
  @PrimaryColumn('varchar', { length: 36 }) id!: string;
  @Column('varchar', { name: 'api_key_id', length: 36 }) apiKeyId!: string;
  @Column('varchar', { length: 2048 }) url!: string;
  @Column('varchar', { length: 100 }) secret!: string;
  /** Null for every event type. */
  @Column('text', { name: 'event_types', nullable: true, transformer: JSON_LIST })
  eventTypes!: string[] | null;
  /** Company slugs; null for every company. */
  @Column('text', { nullable: true, transformer: JSON_LIST }) companies!: string[] | null;
  /** Company categories, canonically spelled; null for every category. */
  @Column('text', { nullable: true, transformer: JSON_LIST }) categories!: string[] | null;
  /** The least significance a change needs; null for every change. */
  @Column('varchar', { name: 'min_significance', length: 8, nullable: true })
  minSignificance!: Significance | null;
  /** The least change_percent, either way, a price change needs; null for every price change. */
  @Column('double precision', { name: 'min_change_percent', nullable: true })
  minChangePercent!: number | null;
  /**
   * The change feed's end when the webhook was registered: it receives the extractions after
   * this position (transaction id, seq), none from before it existed.
   */
  @Column('bigint', { name: 'start_transaction_id' }) startTransactionId!: string;
  @Column('bigint', { name: 'start_seq' }) startSeq!: string;
  @Column('varchar', { name: 'created_at', length: 32 }) createdAt!: string;
}
