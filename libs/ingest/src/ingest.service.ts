import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '#app/config';
import {
  CheckedRecordSeal,
  IngestQueue,
  RecordChecker,
  isBatchBody,
  type BatchBody,
  type IngestJobData,
  type Unparsable,
} from '#app/contracts';
import { Mutex } from 'async-mutex';
import { randomUUID } from 'node:crypto';
import { BatchTooLarge, InvalidBatch, UnparsableJsonBatch } from './batch-errors.js';
import { BatchManifestStore } from './batch-manifest.store.js';

export const MAX_RECORDS_PER_BATCH = 1_000;
/** The largest body of a batch, JSON or NDJSON: a thousand records of any type fit. */
export const MAX_BATCH_BYTES = 5 * 1024 * 1024;

/** How long the checking thread may wait for a batch before it is let go. */
const THREAD_IDLE_MS = 30_000;

/** Jobs per Redis pipeline: encoding a thousand, and reading their replies, takes tens of ms. */
const JOBS_PER_ADD = 50;

export interface AcceptedBatch {
  batch_id: string;
  accepted: number;
  /** Distinct jobs: identical records within a batch are one job. */
  jobs: number;
}

/**
 * Checks a batch all or nothing: every record is checked before any is queued, and the answer
 * is sent only once every job is in Redis. Jobs go to Redis a chunk at a time, so a Redis failure
 * part-way leaves the chunks before it queued behind a 503; the batch sent again is applied
 * once, as the worker judges duplicates by the event log. Parsing and checking run on a thread
 * of their own (RecordChecker), so the event loop keeps serving reads meanwhile, and holds only
 * a chunk of a batch at a time.
 */
@Injectable()
export class IngestService implements OnModuleDestroy {
  /**
   * A process takes one batch at a time (its checking thread holds one): batches in flight wait
   * as unparsed bytes, and the first to arrive is answered first.
   */
  private readonly oneBatchAtATime = new Mutex();
  private readonly checker: RecordChecker;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    config: AppConfig,
    private readonly ingestQueue: IngestQueue,
    private readonly manifests: BatchManifestStore,
    private readonly seal: CheckedRecordSeal,
  ) {
    this.checker = new RecordChecker(config.ingest.scrapers);
  }

  /**
   * `body` is a BatchBody, as the ingest route's parsers give it; any other (a text/plain body,
   * none) is not a batch.
   */
  async accept(body: unknown, requestId: string | null): Promise<AcceptedBatch> {
    if (!isBatchBody(body)) notAnArray();
    try {
      return await this.acceptOneAtATime(body, requestId);
    } finally {
      this.closeThreadWhenIdle();
    }
  }

  /**
   * The checking thread holds a heap of its own (about 25 MB once it has checked batches): a
   * process that has taken no batch for THREAD_IDLE_MS lets it go, and the next batch starts
   * another. Under the batch lock, so never under a batch in hand.
   */
  private closeThreadWhenIdle(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (!this.oneBatchAtATime.isLocked()) {
        void this.oneBatchAtATime.runExclusive(() => this.checker.close());
      }
    }, THREAD_IDLE_MS).unref();
  }

  private acceptOneAtATime(body: BatchBody, requestId: string | null): Promise<AcceptedBatch> {
    return this.oneBatchAtATime.runExclusive(async () => {
      const parsed = await this.checker.parse(body);
      if ('unparsable' in parsed) throw unparsableBatch(parsed.unparsable);
      checkLength(parsed.length);
      const batchId = randomUUID();
      const checked = await this.checker.check(batchId);
      if ('invalid' in checked) {
        const { invalid } = checked;
        throw new InvalidBatch(
          'INVALID_RECORDS',
          `${invalid.length} of ${parsed.length} records are invalid; nothing was queued`,
          { invalid },
        );
      }
      await this.manifests.save(batchId, checked.jobIds, requestId);
      const origin = { batchId, requestId };
      for (let start = 0; start < checked.distinctJobs; start += JOBS_PER_ADD) {
        const jobs = await this.checker.jobs(start, JOBS_PER_ADD);
        await this.ingestQueue.queue.addBulk(
          jobs.map(({ jobId, record }) => ({
            name: record.type,
            data: { record, ...origin, checked: this.seal.seal(jobId) } satisfies IngestJobData,
            opts: { jobId },
          })),
        );
      }
      return { batch_id: batchId, accepted: checked.jobIds.length, jobs: checked.distinctJobs };
    });
  }

  /** After the batch in hand: its thread must not end under it, half of its jobs queued. */
  onModuleDestroy(): Promise<void> {
    clearTimeout(this.idleTimer);
    return this.oneBatchAtATime.runExclusive(() => this.checker.close());
  }
}

/** An NDJSON refusal names the line; a JSON body's is answered as every other route's. */
function unparsableBatch(unparsable: Unparsable): Error {
  if (unparsable.format === 'ndjson') {
    const { line } = unparsable;
    return new InvalidBatch('INVALID_NDJSON', `Line ${line} is not valid JSON`, { line });
  }
  return new UnparsableJsonBatch(unparsable.empty);
}

/** A batch is an array of 1 to MAX_RECORDS_PER_BATCH records (`length` null: not an array). */
function checkLength(length: number | null): asserts length is number {
  if (length === null) notAnArray();
  if (length === 0) throw new InvalidBatch('INVALID_BATCH', 'The batch holds no record');
  if (length > MAX_RECORDS_PER_BATCH) throw new BatchTooLarge(MAX_RECORDS_PER_BATCH, length);
}

function notAnArray(): never {
  throw new InvalidBatch('INVALID_BATCH', 'The body must be a JSON array of records or NDJSON');
}
