import { Module } from '@nestjs/common';
import { AccessModule } from '#app/access';
import { IngestQueue } from '#app/contracts';
import { AdminKeysController } from './admin/admin-keys.controller.js';
import { AdminTokenGuard } from './admin/admin-token.guard.js';
import { BatchManifestStore } from './ingest/batch-manifest.store.js';
import { BatchStatusService } from './ingest/batch-status.service.js';
import { IngestController } from './ingest/ingest.controller.js';
import { IngestService } from './ingest/ingest.service.js';

@Module({
  imports: [AccessModule],
  controllers: [IngestController, AdminKeysController],
  providers: [IngestQueue, IngestService, BatchManifestStore, BatchStatusService, AdminTokenGuard],
  exports: [IngestService, AccessModule],
})
export class ApiModule {}
