import { Module } from '@nestjs/common';
import { CheckedRecordSeal, IngestQueue } from '#app/contracts';
import { BatchManifestStore } from './batch-manifest.store.js';
import { BatchStatusService } from './batch-status.service.js';
import { IngestService } from './ingest.service.js';

/**
 * Batch acceptance and batch status on the ingest queue, shared by the HTTP API and the
 * command-line tool (`ingest <file>`), so both queue records through one path. Importing it
 * opens a Redis connection (the producer's), so contexts that need only the database leave it
 * out.
 */
@Module({
  providers: [
    IngestQueue,
    CheckedRecordSeal,
    IngestService,
    BatchManifestStore,
    BatchStatusService,
  ],
  exports: [IngestQueue, IngestService, BatchStatusService],
})
export class IngestModule {}
