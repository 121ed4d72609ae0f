import { Injectable } from '@nestjs/common';
import { AppConfig } from '#app/config';
import { IngestQueue } from '#app/contracts';
import {
  batchOutcomesKey,
  decodeOutcome,
  OUTCOMES_MARKER,
  type BatchOutcome,
} from './batch-outcomes.js';

export interface BatchManifest {
  created_at: string;
  request_id: string | null;
  /** One per record, in the order the records were sent. */
  job_ids: string[];
}

/** A batch as it stands: its manifest, and the outcome of each job that has ended. */
export interface BatchRecord {
  manifest: BatchManifest;
  /** Null for a batch accepted before outcomes were written down (see batchOutcomesKey). */
  outcomes: Map<string, BatchOutcome> | null;
  /** The jobs a worker holds right now, of any batch. */
  active: Set<string>;
}

/**
 * Which job each record of a batch became, and how each job ended. Kept in Redis beside the
 * jobs, as long as completed jobs are kept, under two keys per batch in the queues' hash slot.
 */
@Injectable()
export class BatchManifestStore {
  constructor(
    private readonly config: AppConfig,
    private readonly ingestQueue: IngestQueue,
  ) {}

  async save(batchId: string, jobIds: string[], requestId: string | null): Promise<void> {
    const manifest: BatchManifest = {
      created_at: new Date().toISOString(),
      request_id: requestId,
      job_ids: jobIds,
    };
    const lifetime = this.config.ingest.retentionSeconds;
    const outcomes = batchOutcomesKey(this.config.redis.queuePrefix, batchId);
    await this.ingestQueue.redis
      .multi()
      .set(this.key(batchId), JSON.stringify(manifest), 'EX', lifetime)
      .hset(outcomes, OUTCOMES_MARKER, '1')
      .expire(outcomes, lifetime)
      .exec();
  }

  /**
   * The batch, its outcomes and the jobs in hand, in one round trip of three reads, whatever
   * the size of the batch or of the queue's backlog; null for a batch Redis does not hold.
   */
  async read(batchId: string): Promise<BatchRecord | null> {
    const queue = this.ingestQueue.queue;
    const replies = await this.ingestQueue.redis
      .pipeline()
      .get(this.key(batchId))
      .hgetall(batchOutcomesKey(this.config.redis.queuePrefix, batchId))
      .lrange(queue.keys.active!, 0, -1)
      .exec();
    const [manifest, outcomes, active] = (replies ?? []).map(([error, value]) => {
      if (error) throw error;
      return value;
    }) as [string | null, Record<string, string>, string[]];
    if (!manifest) return null;
    const { [OUTCOMES_MARKER]: marker, ...settled } = outcomes;
    return {
      manifest: JSON.parse(manifest) as BatchManifest,
      outcomes:
        marker === undefined
          ? null
          : new Map(
              Object.entries(settled).map(([jobId, stored]) => [jobId, decodeOutcome(stored)]),
            ),
      active: new Set(active),
    };
  }

  private key(batchId: string): string {
    return `${this.config.redis.queuePrefix}:ingest-batch:${batchId}`;
  }
}
