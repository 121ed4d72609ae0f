import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '#app/config';
import {
  BatchLedger,
  CheckedRecordSeal,
  INGEST_CHUNK_JOB,
  IngestQueue,
  RecordChecker,
  isBatchBody,
  type BatchBody,
  type IngestChunkJobData,
  type Unparsable,
} from '#app/contracts';
import { Mutex } from 'async-mutex';
import { randomUUID } from 'node:crypto';
import {
  BatchNotReplicated,
  BatchTooLarge,
  InvalidBatch,
  UnparsableJsonBatch,
} from './batch-errors.js';

export const MAX_RECORDS_PER_BATCH = 1_000;
/** The largest body of a batch, JSON or NDJSON: a thousand records of any type fit. */
export const MAX_BATCH_BYTES = 5 * 1024 * 1024;

/** How long the checking thread may wait for a batch before it is let go. */
const THREAD_IDLE_MS = 30_000;

export interface AcceptedBatch {
  batch_id: string;
  accepted: number;
  /** The batch's chunks: one job each. */
  jobs: number;
}

/**
 * Checks a batch all or nothing: every record is checked before any is queued. Then it opens the
 * batch's counters and queues one job per chunk of INGEST_CHUNK_SIZE records, and answers only
 * once every job is in Redis and, when the queue's master has replicas, on one of them. A Redis
 * failure part-way leaves the chunks before it queued behind a 503; the batch sent again is
 * applied once, as the worker judges duplicates by the event log. Parsing and checking run on a
 * thread of their own (RecordChecker), so the event loop keeps serving reads meanwhile, and
 * holds only one chunk of a batch at a time.
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
    private readonly config: AppConfig,
    private readonly ingestQueue: IngestQueue,
    private readonly ledger: BatchLedger,
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
      const { chunkSize, replicaWaitMs } = this.config.ingest;
      const checked = await this.checker.check(batchId, chunkSize);
      if ('invalid' in checked) {
        const { invalid } = checked;
        throw new InvalidBatch(
          'INVALID_RECORDS',
          `${invalid.length} of ${parsed.length} records are invalid; nothing was queued`,
          { invalid },
        );
      }
      const { chunkJobIds } = checked;
      const mark = await this.ingestQueue.connectionMark();
      await this.ledger.open(batchId, {
        createdAt: new Date().toISOString(),
        requestId,
        total: parsed.length,
        chunkSize,
        jobIds: chunkJobIds,
      });
      for (const [index, jobId] of chunkJobIds.entries()) {
        const { chunkIndex, firstIndex, records } = await this.checker.chunk(index);
        const data: IngestChunkJobData = {
          records,
          batchId,
          requestId,
          chunkIndex,
          firstIndex,
          checked: this.seal.seal(jobId),
        };
        await this.ingestQueue.queue.add(INGEST_CHUNK_JOB, data, { jobId });
      }
      if (!(await this.ingestQueue.replicated(mark, replicaWaitMs))) {
        throw new BatchNotReplicated(replicaWaitMs);
      }
      return { batch_id: batchId, accepted: parsed.length, jobs: chunkJobIds.length };
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
