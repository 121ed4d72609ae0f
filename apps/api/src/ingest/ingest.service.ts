import { Injectable } from '@nestjs/common';
import { AppConfig } from '#app/config';
import {
  IngestQueue,
  ingestJobId,
  recordProblems,
  type IngestJobData,
  type IngestRecord,
} from '#app/contracts';
import { Mutex } from 'async-mutex';
import { randomUUID } from 'node:crypto';
import { ApiError } from '../errors/api-error.js';
import { BatchManifestStore } from './batch-manifest.store.js';
import { mapYielding } from './map-yielding.js';

export const MAX_RECORDS_PER_BATCH = 1_000;

/** Jobs per Redis pipeline: encoding a thousand, and reading their replies, takes tens of ms. */
const JOBS_PER_ADD = 50;

export interface AcceptedBatch {
  batch_id: string;
  accepted: number;
  /** Distinct jobs: identical records within a batch are one job. */
  jobs: number;
}

export interface InvalidRecord {
  index: number;
  type: string | null;
  reasons: string[];
}

/**
 * Accepts a batch all or nothing: every record is checked before any is queued, and the answer
 * is sent only once every job is in Redis.
 */
@Injectable()
export class IngestService {
  /**
   * A process checks and queues one batch at a time, in steps between which the event loop
   * serves everything else: a read waits for one step of one batch, however many are in flight.
   */
  private readonly oneBatchAtATime = new Mutex();

  constructor(
    private readonly config: AppConfig,
    private readonly ingestQueue: IngestQueue,
    private readonly manifests: BatchManifestStore,
  ) {}

  async accept(body: unknown, requestId: string | null): Promise<AcceptedBatch> {
    const items = batchItems(body);
    return this.oneBatchAtATime.runExclusive(async () => {
      const records = await this.validRecords(items);
      const batchId = randomUUID();
      const jobIds = await mapYielding(records, (record) => ingestJobId(record, batchId));
      await this.manifests.save(batchId, jobIds, requestId);
      const jobs = distinctJobs(records, jobIds, { batchId, requestId });
      for (let start = 0; start < jobs.length; start += JOBS_PER_ADD) {
        await this.ingestQueue.queue.addBulk(jobs.slice(start, start + JOBS_PER_ADD));
      }
      return { batch_id: batchId, accepted: records.length, jobs: jobs.length };
    });
  }

  private async validRecords(items: unknown[]): Promise<IngestRecord[]> {
    const problems = await mapYielding(items, (item) =>
      recordProblems(item, this.config.ingest.scrapers),
    );
    const invalid: InvalidRecord[] = [];
    problems.forEach((reasons, index) => {
      if (reasons.length === 0) return;
      const type = (items[index] as { type?: unknown } | null)?.type;
      invalid.push({ index, type: typeof type === 'string' ? type : null, reasons });
    });
    if (invalid.length > 0) {
      throw new ApiError(
        400,
        'INVALID_RECORDS',
        `${invalid.length} of ${items.length} records are invalid; nothing was queued`,
        { invalid },
      );
    }
    return items as IngestRecord[];
  }
}

interface BulkJob {
  name: string;
  data: IngestJobData;
  opts: { jobId: string };
}

/** One job per distinct id: identical records within a batch are one job. */
function distinctJobs(
  records: IngestRecord[],
  jobIds: string[],
  origin: Pick<IngestJobData, 'batchId' | 'requestId'>,
): BulkJob[] {
  const jobs = new Map<string, BulkJob>();
  records.forEach((record, index) => {
    const jobId = jobIds[index] as string;
    jobs.set(jobId, { name: record.type, data: { record, ...origin }, opts: { jobId } });
  });
  return [...jobs.values()];
}

/** The body as a batch's items, if it is one of the right size; they are checked apart. */
function batchItems(body: unknown): unknown[] {
  if (!Array.isArray(body)) {
    throw new ApiError(400, 'INVALID_BATCH', 'The body must be a JSON array of records or NDJSON');
  }
  if (body.length === 0) throw new ApiError(400, 'INVALID_BATCH', 'The batch holds no record');
  if (body.length > MAX_RECORDS_PER_BATCH) {
    throw new ApiError(
      413,
      'BATCH_TOO_LARGE',
      `A batch holds at most ${MAX_RECORDS_PER_BATCH} records`,
      {
        max: MAX_RECORDS_PER_BATCH,
        provided: body.length,
      },
    );
  }
  return body;
}
