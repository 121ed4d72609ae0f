import { Module } from '@nestjs/common';
import { AccessModule, KeyRevocationListener } from '#app/access';
import { AdminKeysController } from './admin/admin-keys.controller.js';
import { AdminTokenGuard } from './admin/admin-token.guard.js';
import { AdminTokenVerifier } from './admin/admin-token.verifier.js';
import { RequestAdmission } from './auth/request-admission.js';
import { CategoriesController } from './catalogue/categories.controller.js';
import { ChangesController } from './changes/changes.controller.js';
import { CompaniesController } from './catalogue/companies.controller.js';
import { FilesController } from './catalogue/files.controller.js';
import { PagesController } from './catalogue/pages.controller.js';
import { PricingController } from './catalogue/pricing.controller.js';
import { SlugResolver } from './catalogue/slug-resolver.js';
import { HomeController } from './home/home.controller.js';
import { ImmutableReadCache } from './http/immutable-read.cache.js';
import { IngestController } from './ingest/ingest.controller.js';
import { IngestModule } from '#app/ingest';
import { UsageController } from './usage/usage.controller.js';
import { WebhooksController } from './webhooks/webhooks.controller.js';

@Module({
  imports: [AccessModule, IngestModule],
  controllers: [
    IngestController,
    AdminKeysController,
    CompaniesController,
    CategoriesController,
    PagesController,
    FilesController,
    PricingController,
    ChangesController,
    UsageController,
    WebhooksController,
    HomeController,
  ],
  providers: [
    RequestAdmission,
    SlugResolver,
    ImmutableReadCache,
    AdminTokenGuard,
    AdminTokenVerifier,
    KeyRevocationListener,
  ],
  exports: [IngestModule, AccessModule],
})
export class ApiModule {}
