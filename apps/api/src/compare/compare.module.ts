import { Module } from '@nestjs/common';
import { AdmissionModule } from '../auth/admission.module.js';
import { CatalogueModule } from '../catalogue/catalogue.module.js';
import { CurrencyModule } from '../currency/currency.module.js';
import { CompareController } from './compare.controller.js';
import { CompareQueries } from './compare.queries.js';

/** GET /v1/api/compare. */
@Module({
  imports: [AdmissionModule, CatalogueModule, CurrencyModule],
  controllers: [CompareController],
  providers: [CompareQueries],
})
export class CompareModule {}
