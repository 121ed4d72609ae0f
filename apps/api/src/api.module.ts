import { Module } from '@nestjs/common';
import { AccessModule, KeyRevocationListener } from '#app/access';
import { IngestQueue } from '#app/contracts';
import { AdminKeysController } from './admin/admin-keys.controller.js';
import { AdminTokenGuard } from './admin/admin-token.guard.js';
import { CompaniesController } from './catalogue/companies.controller.js';
import { FilesController } from './catalogue/files.controller.js';
import { PagesController } from './catalogue/pages.controller.js';
import { PricingController } from './catalogue/pricing.controller.js';
import { SlugResolver } from './catalogue/slug-resolver.js';
import { BatchManifestStore } from './ingest/batch-manifest.store.js';
import { BatchStatusService } from './ingest/batch-status.service.js';
import { IngestController } from './ingest/ingest.controller.js';
import { IngestService } from './ingest/ingest.service.js';
import { UsageController } from './usage/usage.controller.js';

@Module({
  imports: [AccessModule],
  controllers: [
    IngestController,
    AdminKeysController,
    CompaniesController,
    PagesController,
    FilesController,
    PricingController,
    UsageController,
  ],
  providers: [
    SlugResolver,
    IngestQueue,
    IngestService,
    BatchManifestStore,
    BatchStatusService,
    AdminTokenGuard,
    KeyRevocationListener,
  ],
  exports: [IngestService, AccessModule],
})
export class ApiModule {}
