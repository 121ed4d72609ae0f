import { Injectable } from '@nestjs/common';
import { BatchLedger, IngestQueue, type BatchFailure, type BatchLedgerView } from '#app/contracts';
import { UnknownBatch } from './batch-errors.js';
import { LegacyBatchStatus } from './legacy-batch-status.js';

export type RecordState = 'waiting' | 'active' | 'done' | 'duplicate' | 'failed' | 'unknown';

export interface BatchStatus {
  batch_id: string;
  created_at: string;
  total: number;
  /** True once no record is waiting or active. */
  complete: boolean;
  counts: Record<RecordState, number>;
  failures: BatchFailure[];
}

/** A batch's status from its records' counts: complete once none waits or is active. */
export function batchStatus(
  batch: Pick<BatchStatus, 'batch_id' | 'created_at' | 'total' | 'counts' | 'failures'>,
): BatchStatus {
  const { waiting, active } = batch.counts;
  return { ...batch, complete: waiting === 0 && active === 0 };
}

/** Counts of records by state, all zero. */
export function noRecords(): Record<RecordState, number> {
  return { waiting: 0, active: 0, done: 0, duplicate: 0, failed: 0, unknown: 0 };
}

type JobState = 'active' | 'waiting' | 'finished' | 'unknown';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Where a batch's records stand: the counters the worker settles as it commits each chunk, and
 * the failures with their reasons, in one read; then, only while some records have no outcome
 * yet, where each of their chunks' jobs stands. A few commands whatever the batch's size or the
 * queue's backlog.
 */
@Injectable()
export class BatchStatusService {
  constructor(
    private readonly ledger: BatchLedger,
    private readonly ingestQueue: IngestQueue,
    private readonly legacy: LegacyBatchStatus,
  ) {}

  async status(batchId: string): Promise<BatchStatus> {
    if (!UUID.test(batchId)) throw new UnknownBatch(batchId);
    const view = await this.ledger.read(batchId);
    if (view) return this.statusOf(batchId, view, { readAgain: true });
    const legacy = await this.legacy.status(batchId);
    if (legacy) return legacy;
    throw new UnknownBatch(batchId);
  }

  /**
   * The status from the counters `view` holds, and the state of the jobs of the chunks with
   * records yet to settle. A worker settles a chunk before its job finishes, so a job found
   * finished finished after `view` was read: the counters are read again, once. A job still
   * finished then failed for good without settling (its worker could not reach Redis at the
   * end, say): its records count as failed.
   */
  private async statusOf(
    batchId: string,
    view: BatchLedgerView,
    { readAgain }: { readAgain: boolean },
  ): Promise<BatchStatus> {
    const counts = { ...noRecords(), ...view.counts };
    const unsettled = view.jobIds
      .map((jobId, chunk) => ({
        jobId,
        records: chunkSize(view, chunk) - (view.settledByChunk[chunk] ?? 0),
      }))
      .filter(({ records }) => records > 0);
    const states =
      unsettled.length > 0 ? await this.jobStates(unsettled.map(({ jobId }) => jobId)) : [];
    if (readAgain && states.includes('finished')) {
      const again = await this.ledger.read(batchId);
      if (again) return this.statusOf(batchId, again, { readAgain: false });
    }
    unsettled.forEach(({ records }, index) => {
      const state = states[index] as JobState;
      counts[state === 'finished' ? 'failed' : state] += records;
    });
    return batchStatus({
      batch_id: batchId,
      created_at: view.createdAt,
      total: view.total,
      counts,
      failures: view.failures,
    });
  }

  /**
   * Where each job stands: active (a worker holds it), waiting (queued, or delayed before it is
   * tried again), finished (completed, or failed for good) or unknown (gone: an operator removed
   * it).
   */
  private async jobStates(jobIds: string[]): Promise<JobState[]> {
    const queue = this.ingestQueue.queue;
    const pipeline = this.ingestQueue.redis.pipeline().lrange(queue.keys.active!, 0, -1);
    for (const jobId of jobIds) pipeline.hmget(queue.toKey(jobId), 'timestamp', 'finishedOn');
    const [[, active], ...jobs] = (await pipeline.exec()) as [
      [null, string[]],
      ...[null, (string | null)[]][],
    ];
    const held = new Set(active);
    return jobIds.map((jobId, index) => {
      const [timestamp, finishedOn] = jobs[index]?.[1] ?? [];
      if (!timestamp) return 'unknown';
      if (finishedOn) return 'finished';
      return held.has(jobId) ? 'active' : 'waiting';
    });
  }
}

/** How many records the chunk holds: the chunk size, but the last may hold fewer. */
function chunkSize(view: BatchLedgerView, chunk: number): number {
  return Math.min(view.chunkSize, view.total - chunk * view.chunkSize);
}
