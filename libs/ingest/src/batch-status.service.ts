import { Injectable } from '@nestjs/common';
import { IngestQueue, type IngestJobData, type IngestJobResult } from '#app/contracts';
import type { Job } from 'bullmq';
import { UnknownBatch } from './batch-errors.js';
import { BatchManifestStore } from './batch-manifest.store.js';

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

interface JobView {
  job: Job<IngestJobData, IngestJobResult> | undefined;
  state: string;
}

@Injectable()
export class BatchStatusService {
  constructor(
    private readonly ingestQueue: IngestQueue,
    private readonly manifests: BatchManifestStore,
  ) {}

  async status(batchId: string): Promise<BatchStatus> {
    const manifest = UUID.test(batchId) ? await this.manifests.load(batchId) : null;
    if (!manifest) {
      throw new UnknownBatch(batchId);
    }
    const views = await this.jobViews([...new Set(manifest.job_ids)]);
    const counts = noRecords();
    const failures: BatchStatus['failures'] = [];
    manifest.job_ids.forEach((jobId, index) => {
      const view = views.get(jobId) as JobView;
      const state = recordState(view);
      counts[state] += 1;
      if (state === 'failed' && view.job) {
        failures.push({
          index,
          job_id: jobId,
          type: view.job.name,
          reason: view.job.failedReason ?? 'unknown reason',
        });
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

  private async jobViews(jobIds: string[]): Promise<Map<string, JobView>> {
    const queue = this.ingestQueue.queue;
    const entries = await Promise.all(
      jobIds.map(async (id): Promise<[string, JobView]> => {
        // State first: a job seen failed (or completed) is then read with its final reason (or
        // result), which BullMQ writes in the same step as the state. Read the other way round,
        // the reason of an earlier attempt could come with the final state.
        const state = await queue.getJobState(id);
        const job = await queue.getJob(id);
        return [id, { job, state }];
      }),
    );
    return new Map(entries);
  }
}

/** Counts of records by state, all zero. */
export function noRecords(): Record<RecordState, number> {
  return { waiting: 0, active: 0, done: 0, duplicate: 0, failed: 0, unknown: 0 };
}

/** Each job is the batch's own (its id names the batch); the worker told whether the log had it. */
function recordState({ job, state }: JobView): RecordState {
  if (!job) return 'unknown';
  switch (state) {
    case 'completed':
      return job.returnvalue?.outcome === 'duplicate' ? 'duplicate' : 'done';
    case 'failed':
      return 'failed';
    case 'active':
      return 'active';
    case 'waiting':
    case 'delayed':
    case 'prioritized':
    case 'waiting-children':
      return 'waiting';
    default:
      return 'unknown';
  }
}
