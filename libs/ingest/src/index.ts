export * from './batch-errors.js';
export {
  BatchStatusService,
  noRecords,
  type BatchStatus,
  type RecordState,
} from './batch-status.js';
export { IngestModule } from './ingest.module.js';
export {
  IngestService,
  MAX_BATCH_BYTES,
  MAX_RECORDS_PER_BATCH,
  type AcceptedBatch,
} from './ingest.service.js';
