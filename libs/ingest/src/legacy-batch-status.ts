import { Injectable } from '@nestjs/common';
import { AppConfig } from '#app/config';
import { IngestQueue, type IngestJobResult } from '#app/contracts';
import { batchStatus, noRecords, type BatchStatus, type RecordState } from './batch-status.js';

/** What the previous release kept of a batch: which job each record became. */
interface LegacyManifest {
  created_at: string;
  /** One per record, in the order the records were sent. */
  job_ids: string[];
}

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
 * The status of a batch the previous release accepted (one job per record, a manifest naming
 * them), for as long as it keeps them (INGEST_RETENTION_SECONDS after the upgrade; then this
 * file goes): the manifest, then the state of its jobs in one script.
 */
@Injectable()
export class LegacyBatchStatus {
  private readonly redis: IngestQueue['redis'] & JobStateCommands;

  constructor(
    private readonly ingestQueue: IngestQueue,
    private readonly config: AppConfig,
  ) {
    ingestQueue.redis.defineCommand('batchJobStates', { lua: JOB_STATES });
    this.redis = ingestQueue.redis as IngestQueue['redis'] & JobStateCommands;
  }

  /** The batch's status, or null when the previous release kept no batch of that id. */
  async status(batchId: string): Promise<BatchStatus | null> {
    const text = await this.redis.get(`${this.config.redis.queuePrefix}:ingest-batch:${batchId}`);
    if (!text) return null;
    const manifest = JSON.parse(text) as LegacyManifest;
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
    return batchStatus({
      batch_id: batchId,
      created_at: manifest.created_at,
      total: manifest.job_ids.length,
      counts,
      failures,
    });
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

/** The worker told, in a completed job's result, whether the log had the record already. */
function jobView(state: string, detail: string): JobView {
  if (state !== 'completed') return { state: state as RecordState, reason: detail };
  const result = JSON.parse(detail) as Pick<IngestJobResult, 'outcome'> | null;
  return { state: result?.outcome === 'duplicate' ? 'duplicate' : 'done', reason: '' };
}

/** The record type an ingestJobId starts with. */
function recordTypeOfJobId(jobId: string): string {
  return jobId.slice(0, jobId.indexOf('-'));
}
