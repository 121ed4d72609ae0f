import { Module } from '@nestjs/common';
import { AdminModule } from './admin/admin.module.js';
import { BenchmarksModule } from './benchmarks/benchmarks.module.js';
import { ChangesModule } from './changes/changes.module.js';
import { CompareModule } from './compare/compare.module.js';
import { CompaniesModule } from './companies/companies.module.js';
import { ExplorerModule } from './explorer/explorer.module.js';
import { ExportModule } from './export/export.module.js';
import { FilesModule } from './files/files.module.js';
import { HomeModule } from './home/home.module.js';
import { ReadLaneModule } from './http/read-lane.module.js';
import { IngestApiModule } from './ingest/ingest-api.module.js';
import { PagesModule } from './pages/pages.module.js';
import { PlansModule } from './plans/plans.module.js';
import { PricingModule } from './pricing/pricing.module.js';
import { UsageModule } from './usage/usage.module.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';

/**
 * The HTTP API: one module per feature, in the order the OpenAPI document lists their routes,
 * and the read lane's kept answers, which http-app.ts hands to the lane it adds ahead of Nest.
 */
@Module({
  imports: [
    IngestApiModule,
    AdminModule,
    CompaniesModule,
    PagesModule,
    FilesModule,
    PricingModule,
    BenchmarksModule,
    CompareModule,
    ChangesModule,
    PlansModule,
    ExportModule,
    UsageModule,
    WebhooksModule,
    HomeModule,
    ExplorerModule,
    ReadLaneModule,
  ],
})
export class ApiModule {}
