import { Module } from '@nestjs/common';
import { AdmissionModule } from '../auth/admission.module.js';
import { CatalogueModule } from '../catalogue/catalogue.module.js';
import { CurrencyModule } from '../currency/currency.module.js';
import { BenchmarksController } from './benchmarks.controller.js';
import { BenchmarksQueries } from './benchmarks.queries.js';

/** GET /v1/api/benchmarks and /v1/api/benchmarks/series. */
@Module({
  imports: [AdmissionModule, CatalogueModule, CurrencyModule],
  controllers: [BenchmarksController],
  providers: [BenchmarksQueries],
})
export class BenchmarksModule {}
