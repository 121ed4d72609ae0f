import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The webhook dispatcher's place in the change feed: the position (transaction id, seq) of the
 * last extraction whose deliveries are queued, and a generation every registration moves.
 */
@Entity('webhook_dispatch')
export class WebhookDispatchEntity {
  @PrimaryColumn('varchar', { length: 64 }) name!: string;
  /** Bigints as text: PostgreSQL's transaction ids can outgrow a JavaScript number. */
  @Column('bigint', { name: 'last_transaction_id' }) lastTransactionId!: string;
  @Column('bigint', { name: 'last_seq' }) lastSeq!: string;
  @Column('bigint') generation!: string;
  @Column('varchar', { name: 'updated_at', length: 32 }) updatedAt!: string;
}
