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
 * The same record twice in one batch is one job, and adding a batch's jobs again (a retried
 * request) adds nothing. Sent again in another batch it is another job: BullMQ keeps finished
 * jobs for days and would ignore an add under their id, so reusing ids across batches would let
 * the queue's memory, not the event log, decide what is a duplicate (a reset database would
 * then never receive records sent before it). The worker reads the log to tell.
 * BullMQ forbids ':' in custom ids, so the key is hashed.
 */
export function ingestJobId(record: IngestRecord, batchId: string): string {
  const keyHash = sha256Hex(`${record.type}\n${naturalKey(record)}`).slice(0, 24);
  return `${record.type}-${keyHash}-${recordContentHash(record).slice(0, 24)}-${batchId}`;
}
