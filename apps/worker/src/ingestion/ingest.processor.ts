import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AppConfig } from '#app/config';
import {
  BatchLedger,
  CheckedRecordSeal,
  isChunkJob,
  recordProblems,
  recordsOfJob,
  type IngestJobData,
  type IngestJobResult,
  type SettledRecord,
} from '#app/contracts';
import { AppendRecords, recordTypeOf, type IngestRecord, type RecordOutcome } from '#app/domain';
import { MAX_RECORDS_PER_BATCH } from '#app/ingest';
import { Metrics } from '#app/observability';
import { UnrecoverableError, type Job } from 'bullmq';

/** How much of a job's failure reason names its records' reasons (BullMQ keeps it whole). */
const MAX_REASON_LENGTH = 4_000;

type IngestJob = Job<IngestJobData, IngestJobResult>;

/** Records of a job refused for good, each already settled with its own reason. */
class RecordsRefused extends UnrecoverableError {}

/**
 * Runs a job, a chunk or a single record: checks its records (unless the API's mark vouches for
 * them), decides them together (AppendRecords), and settles each record's outcome into its
 * batch's counters. A record refused or waiting fails or waits alone: the job completes when
 * every record is done or a duplicate; else it fails, to be tried again after the queue's
 * backoff while some records wait for their company, page or scrape and attempts remain (the
 * retry finds the others in the log, and counts them once), and for good otherwise. A database
 * that is down is the worker host's to handle: no attempt is spent.
 */
@Injectable()
export class IngestProcessor {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly config: AppConfig,
    private readonly seal: CheckedRecordSeal,
    private readonly ledger: BatchLedger,
    private readonly metrics: Metrics,
  ) {}

  async process(job: IngestJob): Promise<IngestJobResult> {
    const records = wellFormedRecords(job);
    const outcomes = await this.decide(job, records);
    const attempts = job.opts.attempts ?? 1;
    const lastAttempt = job.attemptsMade + 1 >= attempts;
    const final = outcomes.map((outcome): RecordOutcome => {
      if (outcome.outcome !== 'waiting' || !lastAttempt) return outcome;
      return {
        outcome: 'refused',
        reason: `${outcome.reason}; gave up after ${attempts} attempts`,
      };
    });
    await this.settle(job, settled(records, final));
    const retried = final.some(({ outcome }) => outcome === 'waiting');
    this.count(records, final, retried);
    const firstIndex = isChunkJob(job.data) ? job.data.firstIndex : 0;
    const failed = final.flatMap((outcome, position) =>
      outcome.outcome === 'refused' || outcome.outcome === 'waiting'
        ? [{ index: firstIndex + position, reason: outcome.reason }]
        : [],
    );
    if (failed.length > 0) {
      const reason = failureReason(records.length, failed);
      // Records that wait are worth the queue's backoff; a refusal alone is not.
      throw retried ? new Error(reason) : new RecordsRefused(reason);
    }
    const appended = final.filter(({ outcome }) => outcome === 'appended').length;
    return {
      outcome: appended > 0 ? 'appended' : 'duplicate',
      appended,
      duplicates: records.length - appended,
    };
  }

  /**
   * A job failed for good on its own account (an error of the database or of this code, its
   * locks lost too often): its records without an outcome fail with the job's reason, so that
   * the batch status does not show them waiting for ever. Refused records were settled already.
   */
  async failedForGood(job: IngestJob, error: Error): Promise<void> {
    if (error instanceof RecordsRefused) return;
    const reason = error.message;
    const records = isChunkJob(job.data) && Array.isArray(job.data.records) ? job.data.records : [];
    await this.settle(
      job,
      records.map((record, position) => ({
        position,
        outcome: 'failed',
        failure: { type: recordTypeLabel(record), reason },
      })),
      'unsettled',
    );
  }

  /** Each record's outcome: invalid ones refused here, the others as the log decides them. */
  private async decide(job: IngestJob, records: IngestRecord[]): Promise<RecordOutcome[]> {
    const outcomes: RecordOutcome[] = [];
    const valid: number[] = [];
    // Pipelines may add jobs without the API: records whose check the API's mark does not vouch
    // for are checked here.
    const vouched = this.seal.holds(job.id, job.data);
    for (const [index, record] of records.entries()) {
      const problems = vouched ? [] : await recordProblems(record, this.config.ingest.scrapers);
      if (problems.length > 0) {
        outcomes[index] = { outcome: 'refused', reason: `invalid record: ${problems.join('; ')}` };
      } else valid.push(index);
    }
    if (valid.length > 0) {
      const { batchId, requestId } = job.data;
      const decided = await this.commandBus.execute<AppendRecords, RecordOutcome[]>(
        new AppendRecords(
          valid.map((index) => records[index] as IngestRecord),
          { batchId, requestId, jobId: job.id ?? null },
        ),
      );
      valid.forEach((index, position) => (outcomes[index] = decided[position] as RecordOutcome));
    }
    return outcomes;
  }

  /** Into the batch's counters, for a chunk of a batch the API accepted. */
  private async settle(
    job: IngestJob,
    outcomes: SettledRecord[],
    mode?: 'unsettled',
  ): Promise<void> {
    const { data } = job;
    if (!isChunkJob(data) || data.batchId === null || !job.id) return;
    const chunk = { batchId: data.batchId, jobId: job.id, chunkIndex: data.chunkIndex };
    await this.ledger.settle(chunk, outcomes, mode);
  }

  /**
   * Records by type and outcome, once each as its job ends; a record that waits counts as
   * `retrying` each time its job is tried again.
   */
  private count(records: IngestRecord[], outcomes: RecordOutcome[], retried: boolean): void {
    outcomes.forEach(({ outcome }, index) => {
      if (retried && outcome !== 'waiting') return;
      const type = recordTypeLabel(records[index]);
      const label = outcome === 'waiting' ? 'retrying' : outcome === 'refused' ? 'failed' : outcome;
      this.metrics.records.inc({ type, outcome: label });
    });
  }
}

/**
 * The job's records, or UnrecoverableError for a job no release of the API queues (a pipeline's
 * mistake): a chunk holds a list of at most a batch of records, and names its place with
 * non-negative whole numbers.
 */
function wellFormedRecords(job: IngestJob): IngestRecord[] {
  const data = job.data as unknown as Record<string, unknown> | null;
  const place = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;
  const wellFormed =
    data !== null &&
    typeof data === 'object' &&
    ('records' in data
      ? Array.isArray(data.records) &&
        data.records.length <= MAX_RECORDS_PER_BATCH &&
        place(data.chunkIndex) &&
        place(data.firstIndex)
      : 'record' in data);
  if (!wellFormed) {
    throw new UnrecoverableError(
      `malformed job: a chunk's data is {records (at most ${MAX_RECORDS_PER_BATCH}), batchId, ` +
        "requestId, chunkIndex, firstIndex}, a single record's {record, batchId, requestId}",
    );
  }
  return recordsOfJob(job.data);
}

/** A record's type for a metric label or a failure: one of the known ones, else `invalid`. */
function recordTypeLabel(record: unknown): string {
  return recordTypeOf(record) ?? 'invalid';
}

/** What the batch's counters learn of a job: every record with an outcome, by position. */
function settled(records: IngestRecord[], outcomes: RecordOutcome[]): SettledRecord[] {
  return outcomes.flatMap((outcome, position): SettledRecord[] => {
    switch (outcome.outcome) {
      case 'appended':
        return [{ position, outcome: 'done' }];
      case 'duplicate':
        return [{ position, outcome: 'duplicate' }];
      case 'refused': {
        const failure = { type: recordTypeLabel(records[position]), reason: outcome.reason };
        return [{ position, outcome: 'failed', failure }];
      }
      case 'waiting':
        return [];
    }
  });
}

/**
 * A single record's reason as it is; a chunk's names each record not applied by its index in the
 * batch, as far as it fits.
 */
function failureReason(total: number, failed: { index: number; reason: string }[]): string {
  if (total === 1) return (failed[0] as { reason: string }).reason;
  const reasons = failed.map(({ index, reason }) => `#${index}: ${reason}`).join('; ');
  const summary = `${failed.length} of ${total} records not applied: ${reasons}`;
  return summary.length > MAX_REASON_LENGTH ? `${summary.slice(0, MAX_REASON_LENGTH)}…` : summary;
}
