import { Module } from '@nestjs/common';
import { BatchLedger, CheckedRecordSeal, IngestQueue } from '#app/contracts';
import { BatchStatusService } from './batch-status.js';
import { IngestService } from './ingest.service.js';
import { LegacyBatchStatus } from './legacy-batch-status.js';

/**
 * Batch acceptance and batch status on the ingest queue, shared by the HTTP API and the
 * command-line tool (`ingest <file>`), so both queue records through one path. Importing it
 * opens a Redis connection (the producer's), so contexts that need only the database leave it
 * out.
 */
@Module({
  providers: [
    IngestQueue,
    BatchLedger,
    CheckedRecordSeal,
    IngestService,
    BatchStatusService,
    LegacyBatchStatus,
  ],
  exports: [IngestQueue, IngestService, BatchStatusService],
})
export class IngestModule {}
