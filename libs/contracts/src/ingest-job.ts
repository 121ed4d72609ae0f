import { naturalKey, recordContentHash, sha256Hex, type IngestRecord } from '#app/domain';

export type {
  IngestRecord,
  CompanyRecord,
  PageRecord,
  ScrapeRecord,
  PricingRecord,
  ExchangeRateRecord,
  PlanInput,
  ChargeInput,
  DiscountInput,
  PricingMetricInput,
} from '#app/domain';

/** The payload of every job on the ingest queue; `record.type` is also the job name. */
export interface IngestJobData {
  record: IngestRecord;
  /** The batch that first queued this job; null for jobs a pipeline adds itself. */
  batchId: string | null;
  requestId: string | null;
  /** The API's mark that it checked `record` (CheckedRecordSeal); a pipeline leaves it out. */
  checked?: string;
}

/** What a finished ingest job returns. */
export interface IngestJobResult {
  outcome: 'appended' | 'duplicate';
}

/**
 * Deterministic job id of a record in one sending of it (`batchId`: the API's batch id, or any
 * id a pipeline gives each sending): record type, natural key and content hash, then the batch.
 * The same record twice in one batch is one job, and a pipeline that adds the same sending's
 * jobs again under the same batch id (a retry of its own adds) adds nothing. A request sent
 * again to the API is another batch, with a batch id of its own: its jobs are new ones, which
 * the worker finds in the log and reports as duplicates. Sent again in another batch a record is
 * another job: BullMQ keeps finished jobs for days and would ignore an add under their id, so
 * reusing ids across batches would let the queue's memory, not the event log, decide what is a
 * duplicate (a reset database would then never receive records sent before it). The worker
 * reads the log to tell. BullMQ forbids ':' in custom ids, so the key is hashed. The id starts
 * with the record's type, which the batch status reads back.
 */
export function ingestJobId(record: IngestRecord, batchId: string): string {
  const keyHash = sha256Hex(`${record.type}\n${naturalKey(record)}`).slice(0, 24);
  return `${record.type}-${keyHash}-${recordContentHash(record).slice(0, 24)}-${batchId}`;
}

/** The record type an ingestJobId starts with. */
export function recordTypeOfJobId(jobId: string): string {
  return jobId.slice(0, jobId.indexOf('-'));
}
