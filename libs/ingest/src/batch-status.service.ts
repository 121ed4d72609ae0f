import { Injectable } from '@nestjs/common';
import { IngestQueue, recordTypeOfJobId, type IngestJobResult } from '#app/contracts';
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

/**
 * The state of each job, read from what BullMQ keeps of it, in one step: one read of each job's
 * hash, and none of the queue's lists but the short one of active jobs. KEYS: that list, then
 * each job's hash; ARGV: the job ids. A job BullMQ has finished has `finishedOn`, and
 * `returnvalue` when it completed (else it failed for good, `failedReason` saying why); an
 * unfinished one is active while a worker holds it, waiting otherwise (queued, or delayed before
 * it is tried again); one without a hash (every job has a `timestamp`) is unknown: removed.
 * Answers a state and its detail (the result, or the reason) per job.
 */
const JOB_STATES = `
local active = {}
for _, id in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do active[id] = true end
local answers = {}
for i = 2, #KEYS do
  local job = redis.call('HMGET', KEYS[i], 'timestamp', 'finishedOn', 'returnvalue', 'failedReason')
  local state, detail = 'waiting', ''
  if not job[1] then
    state = 'unknown'
  elseif job[2] then
    if job[3] then state, detail = 'completed', job[3] else state, detail = 'failed', job[4] or '' end
  elseif active[ARGV[i - 1]] then
    state = 'active'
  end
  answers[#answers + 1] = state
  answers[#answers + 1] = detail
end
return answers`;

interface JobStateCommands {
  batchJobStates(...keysThenIds: string[]): Promise<string[]>;
}

interface JobView {
  state: RecordState;
  /** Why it failed, for a failed job. */
  reason: string;
}

/**
 * Where a batch's records stand: its manifest, then the state of its jobs in one script (one
 * read per job, inside it), so a status costs the same whatever the queue's backlog, where
 * asking BullMQ job by job took two commands per record, each walking the list of waiting jobs.
 */
@Injectable()
export class BatchStatusService {
  private readonly redis: IngestQueue['redis'] & JobStateCommands;

  constructor(
    private readonly ingestQueue: IngestQueue,
    private readonly manifests: BatchManifestStore,
  ) {
    ingestQueue.redis.defineCommand('batchJobStates', { lua: JOB_STATES });
    this.redis = ingestQueue.redis as IngestQueue['redis'] & JobStateCommands;
  }

  async status(batchId: string): Promise<BatchStatus> {
    const manifest = UUID.test(batchId) ? await this.manifests.load(batchId) : null;
    if (!manifest) {
      throw new UnknownBatch(batchId);
    }
    const views = await this.jobViews([...new Set(manifest.job_ids)]);
    const counts = noRecords();
    const failures: BatchStatus['failures'] = [];
    manifest.job_ids.forEach((jobId, index) => {
      const { state, reason } = views.get(jobId) as JobView;
      counts[state] += 1;
      if (state === 'failed') {
        failures.push({ index, job_id: jobId, type: recordTypeOfJobId(jobId), reason });
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
    const keys = [queue.keys.active!, ...jobIds.map((id) => queue.toKey(id))];
    // numberOfKeys varies with the batch: it goes first, as EVALSHA takes it.
    const answers = await this.redis.batchJobStates(String(keys.length), ...keys, ...jobIds);
    return new Map(
      jobIds.map((id, i) => [id, jobView(answers[2 * i] as string, answers[2 * i + 1] ?? '')]),
    );
  }
}

/** Counts of records by state, all zero. */
export function noRecords(): Record<RecordState, number> {
  return { waiting: 0, active: 0, done: 0, duplicate: 0, failed: 0, unknown: 0 };
}

/** The worker told, in a completed job's result, whether the log had the record already. */
function jobView(state: string, detail: string): JobView {
  if (state !== 'completed') return { state: state as RecordState, reason: detail };
  const result = JSON.parse(detail) as IngestJobResult | null;
  return { state: result?.outcome === 'duplicate' ? 'duplicate' : 'done', reason: '' };
}
