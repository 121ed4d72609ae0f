import { Injectable } from '@nestjs/common';
import { DataSource, Repository } from 'typeorm';
import { WebhookDispatchEntity } from '../entities/webhook-dispatch.entity.js';
import { WebhookEntity } from '../entities/webhook.entity.js';
import type { LogPosition } from '../events/event-store.js';
import { WEBHOOK_DISPATCH } from '../migrations/1764200000000-webhooks.js';
import { PricingChangeReader } from '../read-models/pricing-change.reader.js';
import { TransactionRunner } from '../transaction-runner.js';

/** Where the dispatcher stands, and the registrations it has seen (see `register`). */
export interface DispatchState {
  position: LogPosition;
  generation: string;
}

const DISPATCH_ROW = { name: WEBHOOK_DISPATCH };

/**
 * Webhooks and the dispatcher's place. Writes go through the transaction runner (on SQLite, a
 * write beside a worker's open transaction would join it, and its wait for another process's
 * lock would hold the whole process).
 */
@Injectable()
export class WebhookRepository {
  private readonly webhooks: Repository<WebhookEntity>;
  private readonly dispatch: Repository<WebhookDispatchEntity>;

  constructor(
    dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly changes: PricingChangeReader,
  ) {
    this.webhooks = dataSource.getRepository(WebhookEntity);
    this.dispatch = dataSource.getRepository(WebhookDispatchEntity);
  }

  /**
   * Stores a webhook that receives every extraction after the feed's end (none recorded before
   * it existed, however far behind the dispatcher is), and moves the dispatch generation in the
   * same transaction. A dispatcher that read the webhooks before this one existed then fails to
   * move its position (`advanceDispatch`) and reads again with it, so the extractions it was
   * queueing past that end reach this webhook too: none falls between the two.
   * Null, storing nothing, when the key already holds `maxPerKey` webhooks: they are counted
   * under the same lock, so registrations sent together cannot pass the limit together.
   */
  async register(
    webhook: Omit<WebhookEntity, 'startTransactionId' | 'startSeq'>,
    maxPerKey: number,
  ): Promise<WebhookEntity | null> {
    return this.transactions.run(async (tx) => {
      const dispatch = tx.manager.getRepository(WebhookDispatchEntity);
      // The update first: it locks the row until this transaction ends.
      await dispatch.update(DISPATCH_ROW, { generation: () => 'generation + 1' });
      const held = await tx.manager
        .getRepository(WebhookEntity)
        .countBy({ apiKeyId: webhook.apiKeyId });
      if (held >= maxPerKey) return null;
      const start = await this.changes.lastExtraction(tx);
      const stored: WebhookEntity = {
        ...webhook,
        startTransactionId: start.transactionId,
        startSeq: String(start.seq),
      };
      await tx.manager.getRepository(WebhookEntity).insert(stored);
      return stored;
    });
  }

  listForKey(apiKeyId: string): Promise<WebhookEntity[]> {
    return this.webhooks.find({ where: { apiKeyId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  all(): Promise<WebhookEntity[]> {
    return this.webhooks.find();
  }

  findById(id: string): Promise<WebhookEntity | null> {
    return this.webhooks.findOneBy({ id });
  }

  /** Deletes the key's webhook; false when the key has none of that id. */
  async deleteForKey(id: string, apiKeyId: string): Promise<boolean> {
    const result = await this.transactions.run((tx) =>
      tx.manager.getRepository(WebhookEntity).delete({ id, apiKeyId }),
    );
    return (result.affected ?? 0) > 0;
  }

  async dispatchState(): Promise<DispatchState> {
    const row = await this.dispatch.findOneByOrFail(DISPATCH_ROW);
    return {
      position: { transactionId: String(row.lastTransactionId), seq: Number(row.lastSeq) },
      generation: String(row.generation),
    };
  }

  /**
   * Moves the dispatcher to `to` if it still stands where `from` saw it and no webhook was
   * registered since; false otherwise (another dispatcher moved, or a registration came).
   */
  async advanceDispatch(from: DispatchState, to: LogPosition): Promise<boolean> {
    const result = await this.transactions.run((tx) =>
      tx.manager.getRepository(WebhookDispatchEntity).update(
        {
          ...DISPATCH_ROW,
          lastTransactionId: from.position.transactionId,
          lastSeq: String(from.position.seq),
          generation: from.generation,
        },
        {
          lastTransactionId: to.transactionId,
          lastSeq: String(to.seq),
          updatedAt: new Date().toISOString(),
        },
      ),
    );
    return (result.affected ?? 0) > 0;
  }
}
