import { naturalKey, recordContentHash, sha256Hex, type IngestRecord } from '#app/domain';

export type {
  IngestRecord,
  CompanyRecord,
  PageRecord,
  ScrapeRecord,
  PricingRecord,
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
}

/** What a finished ingest job returns. */
export interface IngestJobResult {
  outcome: 'appended' | 'duplicate';
}

/**
 * Deterministic job id: natural key plus content hash. The same record queued twice is one job;
 * the same key with other content is another job, which the worker refuses as a conflict.
 * BullMQ forbids ':' in custom ids, so the key is hashed.
 */
export function ingestJobId(record: IngestRecord): string {
  const keyHash = sha256Hex(`${record.type}\n${naturalKey(record)}`).slice(0, 24);
  return `${record.type}-${keyHash}-${recordContentHash(record).slice(0, 24)}`;
}
