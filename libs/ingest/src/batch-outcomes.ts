import type { RedisConnection } from '#app/contracts';

/** How a record's job ended: appended, found in the log already, or refused for good. */
export type BatchOutcome = 'done' | 'duplicate' | { failed: string };

/** The field under which a batch's outcomes hash says it holds them (see batchOutcomesKey). */
export const OUTCOMES_MARKER = '_';

/**
 * Where each job of a batch ended, one field per job, beside the batch's manifest (same prefix,
 * so same hash slot on a Redis Cluster). The API creates it with the manifest, holding only
 * OUTCOMES_MARKER, and the worker settles each job into it as the job ends, so the batch's
 * status is a few reads whatever the queue holds. A batch without it was accepted by a release
 * before these outcomes, and its jobs' ends were not written down.
 */
export const batchOutcomesKey = (queuePrefix: string, batchId: string) =>
  `${queuePrefix}:ingest-batch:${batchId}:outcomes`;

/**
 * Writes a job's outcome into its batch's hash, if the batch has one (it is gone past the
 * retention time, and a job a pipeline adds itself under an id of its own has none). A success
 * is final: a job run again after its worker died finds its record in the log and would call it
 * a duplicate; a failure gives way to a success (an operator retried the job).
 */
const SETTLE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local before = redis.call('HGET', KEYS[1], ARGV[1])
if before == 'done' or before == 'duplicate' then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1`;

interface OutcomeCommands {
  settleBatchOutcome(key: string, jobId: string, outcome: string): Promise<number>;
}

/** A failure is stored as `failed <reason>`. */
const FAILED = 'failed ';

function encodeOutcome(outcome: BatchOutcome): string {
  return typeof outcome === 'string' ? outcome : `${FAILED}${outcome.failed}`;
}

export function decodeOutcome(stored: string): BatchOutcome {
  return stored.startsWith(FAILED) ? { failed: stored.slice(FAILED.length) } : (stored as 'done');
}

/** The worker's side: settles the jobs of the batches it runs. */
export class BatchOutcomeWriter {
  private readonly connection: RedisConnection & OutcomeCommands;

  constructor(
    connection: RedisConnection,
    private readonly queuePrefix: string,
  ) {
    connection.defineCommand('settleBatchOutcome', { numberOfKeys: 1, lua: SETTLE });
    this.connection = connection as RedisConnection & OutcomeCommands;
  }

  async settle(batchId: string, jobId: string, outcome: BatchOutcome): Promise<void> {
    await this.connection.settleBatchOutcome(
      batchOutcomesKey(this.queuePrefix, batchId),
      jobId,
      encodeOutcome(outcome),
    );
  }
}
