import { AppConfig } from '#app/config';
import { batchBodyOf, recordProblems, type InvalidRecord } from '#app/contracts';
import {
  BatchStatusService,
  IngestService,
  InvalidBatch,
  MAX_RECORDS_PER_BATCH,
  type BatchStatus,
  type RecordState,
} from '#app/ingest';
import { fileLines, ndjsonBatches, type NdjsonBatch } from './ndjson-batches.js';
import type { ProgressCounter } from './progress-display.js';

/** A record of the file that no batch would accept. */
export interface InvalidLine {
  line: number;
  batch: number;
  /** Index of the record in its batch (what the API's 400 names). */
  index: number;
  type: string | null;
  reasons: string[];
}

interface FileCheck {
  records: number;
  batches: number;
  invalid: InvalidLine[];
}

export interface QueuedBatch {
  number: number;
  batchId: string;
  lines: number[];
  jobs: number;
}

export interface FileOutcome {
  records: number;
  counts: Record<RecordState, number>;
  failures: { line: number; batch: number; type: string; reason: string }[];
}

/** A batch the acceptance refused although the check passed (the file changed in between). */
export class InvalidBatchError extends Error {
  constructor(
    readonly batch: number,
    readonly invalid: InvalidLine[],
  ) {
    super(`batch ${batch} holds ${invalid.length} invalid records; it was not queued`);
  }
}

/**
 * An NDJSON file pushed through the API's own batch acceptance (IngestService.accept: whole-batch
 * validation, deterministic job ids, the batch manifest), in batches of up to 1,000 records,
 * then followed through BatchStatusService as GET /v1/ingest/batches/{id} follows a batch.
 */
export class FileIngestion {
  constructor(
    private readonly config: AppConfig,
    private readonly ingest: IngestService,
    private readonly statuses: BatchStatusService,
  ) {}

  /**
   * Validates every line with the rules the acceptance applies, without queuing anything, so a
   * file is queued whole or not at all and every bad line is named in one run.
   */
  async check(path: string): Promise<FileCheck> {
    const check: FileCheck = { records: 0, batches: 0, invalid: [] };
    for await (const batch of this.batches(path)) {
      check.batches += 1;
      check.records += batch.records.length;
      for (const [index, record] of batch.records.entries()) {
        const unparsable = batch.unparsable.get(index);
        const reasons = unparsable
          ? [unparsable]
          : await recordProblems(record, this.config.ingest.scrapers);
        if (reasons.length > 0) check.invalid.push(invalidLine(batch, index, reasons));
      }
    }
    return check;
  }

  /** Queues the batches in file order; `queued` counts the records queued. */
  async queue(path: string, requestId: string, queued: ProgressCounter): Promise<QueuedBatch[]> {
    const batches: QueuedBatch[] = [];
    for await (const batch of this.batches(path)) {
      const accepted = await this.ingest
        .accept(batchBodyOf(batch.records), requestId)
        .catch((error: unknown) => {
          throw refusal(error, batch);
        });
      batches.push({
        number: batch.number,
        batchId: accepted.batch_id,
        lines: batch.lines,
        jobs: accepted.jobs,
      });
      queued.increment(batch.records.length);
    }
    return batches;
  }

  /**
   * Polls each batch's status until none of its records is waiting or active; `processed`
   * counts the records that are done, duplicate, failed or gone.
   */
  async follow(
    batches: QueuedBatch[],
    processed: ProgressCounter,
    pollMs: number,
  ): Promise<FileOutcome> {
    const latest = new Map<QueuedBatch, BatchStatus>();
    for (;;) {
      for (const batch of batches) {
        if (latest.get(batch)?.complete) continue;
        latest.set(batch, await this.statuses.status(batch.batchId));
      }
      const statuses = [...latest.values()];
      processed.update(
        statuses.reduce(
          (sum, { total, counts }) => sum + total - counts.waiting - counts.active,
          0,
        ),
      );
      if (statuses.every((status) => status.complete)) break;
      await new Promise((next) => setTimeout(next, pollMs));
    }
    return outcome(latest);
  }

  private batches(path: string): AsyncGenerator<NdjsonBatch> {
    return ndjsonBatches(fileLines(path), MAX_RECORDS_PER_BATCH);
  }
}

function invalidLine(batch: NdjsonBatch, index: number, reasons: string[]): InvalidLine {
  const type = (batch.records[index] as { type?: unknown } | null)?.type;
  return {
    line: batch.lines[index] as number,
    batch: batch.number,
    index,
    type: typeof type === 'string' ? type : null,
    reasons,
  };
}

/** The acceptance's 400 for invalid records, in lines of the file; any other error as it is. */
function refusal(error: unknown, batch: NdjsonBatch): unknown {
  if (!(error instanceof InvalidBatch) || error.code !== 'INVALID_RECORDS') return error;
  const invalid = (error.details?.invalid ?? []) as InvalidRecord[];
  return new InvalidBatchError(
    batch.number,
    invalid.map(({ index, reasons }) => invalidLine(batch, index, reasons)),
  );
}

function outcome(statuses: Map<QueuedBatch, BatchStatus>): FileOutcome {
  const result: FileOutcome = {
    records: 0,
    counts: { waiting: 0, active: 0, done: 0, duplicate: 0, failed: 0, unknown: 0 },
    failures: [],
  };
  for (const [batch, status] of statuses) {
    result.records += status.total;
    for (const state of Object.keys(result.counts) as RecordState[]) {
      result.counts[state] += status.counts[state];
    }
    for (const { index, type, reason } of status.failures) {
      result.failures.push({
        line: batch.lines[index] as number,
        batch: batch.number,
        type,
        reason,
      });
    }
  }
  return result;
}
