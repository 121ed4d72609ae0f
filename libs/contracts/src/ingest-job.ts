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

/**
 * A job of one record: what the previous release queued for every record, and what a pipeline
 * may still add for a single record. Its name is `record.type`.
 */
export interface IngestRecordJobData {
  record: IngestRecord;
  /** The batch that first queued this job; null for jobs a pipeline adds itself. */
  batchId: string | null;
  requestId: string | null;
  /** The API's mark that it checked `record` (CheckedRecordSeal); a pipeline leaves it out. */
  checked?: string;
}

/** The name of a chunk's job. */
export const INGEST_CHUNK_JOB = 'chunk';

/**
 * A job of a chunk of records: the API queues one per INGEST_CHUNK_SIZE records of a batch, and a
 * pipeline may add its own. The worker decides its records together and each alone: a record
 * refused or waiting for its company never holds the others back.
 */
export interface IngestChunkJobData {
  records: IngestRecord[];
  /** The batch the chunk belongs to (its status counts the chunk's records); null for a pipeline's. */
  batchId: string | null;
  requestId: string | null;
  /** The chunk's place in its batch (0 for the first), which its job id names. */
  chunkIndex: number;
  /** The batch index of the chunk's first record (0 for a pipeline's own chunk). */
  firstIndex: number;
  /** The API's mark that it checked `records` (CheckedRecordSeal); a pipeline leaves it out. */
  checked?: string;
}

/** The payload of a job on the ingest queue: a chunk, or a single record. */
export type IngestJobData = IngestChunkJobData | IngestRecordJobData;

/** What a finished ingest job returns: how many of its records were new, how many known. */
export interface IngestJobResult {
  /** `duplicate` when the log held every record already. */
  outcome: 'appended' | 'duplicate';
  appended: number;
  duplicates: number;
}

export function isChunkJob(data: IngestJobData): data is IngestChunkJobData {
  return 'records' in data;
}

/** The records of a job, chunk or single record, in order. */
export function recordsOfJob(data: IngestJobData): IngestRecord[] {
  return isChunkJob(data) ? data.records : [data.record];
}

/**
 * Deterministic job id of a chunk: the batch (or any id a pipeline gives each sending), the
 * chunk's index and a hash of its records' contents. A pipeline that adds the same chunk again
 * under the same id (a retry of its own add) adds nothing; another sending is another batch id,
 * whose jobs the worker judges against the log.
 */
export function ingestChunkJobId(
  records: readonly IngestRecord[],
  batchId: string,
  chunkIndex: number,
): string {
  const contents = sha256Hex(records.map((record) => recordContentHash(record)).join('\n'));
  return `${INGEST_CHUNK_JOB}-${batchId}-${chunkIndex}-${contents.slice(0, 24)}`;
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
 * with the record's type, which the previous release's batch status reads back.
 */
export function ingestJobId(record: IngestRecord, batchId: string): string {
  const keyHash = sha256Hex(`${record.type}\n${naturalKey(record)}`).slice(0, 24);
  return `${record.type}-${keyHash}-${recordContentHash(record).slice(0, 24)}-${batchId}`;
}
