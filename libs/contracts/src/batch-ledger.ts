import { Injectable } from '@nestjs/common';
import { AppConfig } from '#app/config';
import { IngestQueue } from './ingest-queue.js';
import type { RedisConnection } from './redis-connection.js';

/** How a record of a batch ended, as far as it has. */
export type SettledOutcome = 'done' | 'duplicate' | 'failed';

export interface SettledRecord {
  /** The record's position in its chunk (0 for the first). */
  position: number;
  outcome: SettledOutcome;
  /** For a failed record: its type and why. */
  failure?: { type: string; reason: string };
}

/** A failed record, as the batch status lists it. */
export interface BatchFailure {
  index: number;
  job_id: string;
  type: string;
  reason: string;
}

/** What the API wrote of a batch when it accepted it. */
export interface BatchOpening {
  createdAt: string;
  requestId: string | null;
  total: number;
  chunkSize: number;
  /** One per chunk, in order. */
  jobIds: string[];
}

export interface BatchLedgerView extends BatchOpening {
  counts: Record<SettledOutcome, number>;
  /** Records of each chunk with an outcome, by chunk index. */
  settledByChunk: number[];
  failures: BatchFailure[];
}

/**
 * Settles records of one chunk into their batch. Only the batch's own job for that chunk may
 * (another job naming the batch, a pipeline's say, changes nothing), and only positions inside
 * the chunk; a record's index in the batch follows from the chunk's. A record's outcome replaces
 * the one it had (a failed record an operator retried becomes done), so a chunk settled twice
 * (its worker killed after settling, the job run again) counts each record once; `unsettled`
 * settles only records without an outcome (what a chunk failed for good left). KEYS: the batch,
 * its outcomes, its failures; ARGV: the job id, the chunk index, the mode (`replace` or
 * `unsettled`), then position, outcome and failure (JSON, or empty) per record.
 */
const SETTLE = `
local opened = redis.call('HMGET', KEYS[1], 'jobs', 'chunk_size', 'total')
if not opened[1] then return 0 end
local chunk = tonumber(ARGV[2])
if not chunk or cjson.decode(opened[1])[chunk + 1] ~= ARGV[1] then return 0 end
local first = chunk * tonumber(opened[2])
local size = math.min(tonumber(opened[2]), tonumber(opened[3]) - first)
local settled = 'settled:' .. ARGV[2]
for i = 4, #ARGV, 3 do
  local position, outcome, failure = tonumber(ARGV[i]), ARGV[i + 1], ARGV[i + 2]
  if position and position >= 0 and position < size and position % 1 == 0 then
    local index = tostring(first + position)
    local before = redis.call('HGET', KEYS[2], index)
    if not (before and ARGV[3] == 'unsettled') then
      if before ~= outcome then
        if before then redis.call('HINCRBY', KEYS[1], before, -1)
        else redis.call('HINCRBY', KEYS[1], settled, 1) end
        redis.call('HINCRBY', KEYS[1], outcome, 1)
        redis.call('HSET', KEYS[2], index, outcome)
      end
      if outcome == 'failed' then redis.call('HSET', KEYS[3], index, failure)
      elseif before == 'failed' then redis.call('HDEL', KEYS[3], index) end
    end
  end
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then
  redis.call('PEXPIRE', KEYS[2], ttl)
  redis.call('PEXPIRE', KEYS[3], ttl)
end
return 1`;

interface SettleCommand {
  settleBatchRecords(...keysThenArgs: string[]): Promise<number>;
}

/**
 * A batch's counters in Redis, on the queue's connection, next to its jobs (under the queues' prefix, so one Redis Cluster
 * slot holds them all): opened by the API when it accepts the batch, settled by the worker as it
 * commits each chunk, read by the batch status in two commands whatever the batch's size or the
 * queue's backlog. Kept as long as completed jobs are.
 */
@Injectable()
export class BatchLedger {
  private readonly redis: RedisConnection & SettleCommand;
  private readonly prefix: string;
  private readonly retentionSeconds: number;

  constructor(ingestQueue: IngestQueue, config: AppConfig) {
    ingestQueue.redis.defineCommand('settleBatchRecords', { numberOfKeys: 3, lua: SETTLE });
    this.redis = ingestQueue.redis as RedisConnection & SettleCommand;
    this.prefix = config.redis.queuePrefix;
    this.retentionSeconds = config.ingest.retentionSeconds;
  }

  async open(batchId: string, opening: BatchOpening): Promise<void> {
    const key = this.keys(batchId).batch;
    await this.redis
      .multi()
      .hset(key, {
        created_at: opening.createdAt,
        request_id: opening.requestId ?? '',
        total: opening.total,
        chunk_size: opening.chunkSize,
        jobs: JSON.stringify(opening.jobIds),
        done: 0,
        duplicate: 0,
        failed: 0,
      })
      .expire(key, this.retentionSeconds)
      .exec();
  }

  /** Settles the records of the batch's chunk `chunkIndex`, whose job is `jobId`. */
  async settle(
    chunk: { batchId: string; jobId: string; chunkIndex: number },
    records: SettledRecord[],
    mode: 'replace' | 'unsettled' = 'replace',
  ): Promise<void> {
    if (records.length === 0) return;
    const { batch, outcomes, failures } = this.keys(chunk.batchId);
    await this.redis.settleBatchRecords(
      batch,
      outcomes,
      failures,
      chunk.jobId,
      String(chunk.chunkIndex),
      mode,
      ...records.flatMap(({ position, outcome, failure }) => [
        String(position),
        outcome,
        failure ? JSON.stringify({ job_id: chunk.jobId, ...failure }) : '',
      ]),
    );
  }

  /** The batch's opening and counters, or null when no batch has that id (or it expired). */
  async read(batchId: string): Promise<BatchLedgerView | null> {
    const { batch, failures } = this.keys(batchId);
    const [[, fields], [, failed]] = (await this.redis
      .multi()
      .hgetall(batch)
      .hgetall(failures)
      .exec()) as [[null, Record<string, string>], [null, Record<string, string>]];
    if (!fields.jobs) return null;
    const jobIds = JSON.parse(fields.jobs) as string[];
    return {
      createdAt: fields.created_at as string,
      requestId: fields.request_id || null,
      total: Number(fields.total),
      chunkSize: Number(fields.chunk_size),
      jobIds,
      counts: {
        done: Number(fields.done),
        duplicate: Number(fields.duplicate),
        failed: Number(fields.failed),
      },
      settledByChunk: jobIds.map((_, chunk) => Number(fields[`settled:${chunk}`] ?? 0)),
      failures: Object.entries(failed)
        .map(([index, failure]) => ({
          index: Number(index),
          ...(JSON.parse(failure) as Omit<BatchFailure, 'index'>),
        }))
        .sort((a, b) => a.index - b.index),
    };
  }

  private keys(batchId: string) {
    const batch = `${this.prefix}:batch:${batchId}`;
    return { batch, outcomes: `${batch}:outcomes`, failures: `${batch}:failures` };
  }
}
