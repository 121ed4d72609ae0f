import { Injectable } from '@nestjs/common';
import { UnknownBatch } from './batch-errors.js';
import { BatchManifestStore, type BatchRecord } from './batch-manifest.store.js';

export type RecordState = 'waiting' | 'active' | 'done' | 'duplicate' | 'failed' | 'unknown';

export interface BatchStatus {
  batch_id: string;
  created_at: string;
  total: number;
  /** True once no record is waiting or active. */
  complete: boolean;
  counts: Record<RecordState, number>;
  failures: { index: number; job_id: string; type: string; reason: string }[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Where a batch's records stand, from its manifest and the outcomes the worker wrote down as
 * each job ended (BatchManifestStore.read): a few Redis reads, whatever the batch or the queue's
 * backlog, where reading each job's state would cost two per record, each walking the list of
 * waiting jobs.
 */
@Injectable()
export class BatchStatusService {
  constructor(private readonly manifests: BatchManifestStore) {}

  async status(batchId: string): Promise<BatchStatus> {
    const batch = UUID.test(batchId) ? await this.manifests.read(batchId) : null;
    if (!batch) throw new UnknownBatch(batchId);
    const { manifest } = batch;
    const counts = noRecords();
    const failures: BatchStatus['failures'] = [];
    manifest.job_ids.forEach((jobId, index) => {
      const state = recordState(batch, jobId);
      counts[state] += 1;
      const outcome = batch.outcomes?.get(jobId);
      if (typeof outcome === 'object') {
        failures.push({ index, job_id: jobId, type: recordTypeOf(jobId), reason: outcome.failed });
      }
    });
    return {
      batch_id: batchId,
      created_at: manifest.created_at,
      total: manifest.job_ids.length,
      complete: counts.waiting === 0 && counts.active === 0,
      counts,
      failures,
    };
  }
}

/** Counts of records by state, all zero. */
export function noRecords(): Record<RecordState, number> {
  return { waiting: 0, active: 0, done: 0, duplicate: 0, failed: 0, unknown: 0 };
}

/**
 * A job that has ended is its outcome; one that has not is active while a worker holds it, and
 * waiting otherwise (queued, or waiting to be tried again). A batch accepted by a release before
 * outcomes were written down has none: its jobs that are not active are unknown.
 */
function recordState({ outcomes, active }: BatchRecord, jobId: string): RecordState {
  const outcome = outcomes?.get(jobId);
  if (outcome !== undefined) return typeof outcome === 'object' ? 'failed' : outcome;
  if (active.has(jobId)) return 'active';
  return outcomes ? 'waiting' : 'unknown';
}

/** A job id starts with its record's type (ingestJobId). */
function recordTypeOf(jobId: string): string {
  return jobId.slice(0, jobId.indexOf('-'));
}
