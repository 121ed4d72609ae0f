import { Module } from '@nestjs/common';
import { AdmissionModule } from '../auth/admission.module.js';
import { CatalogueModule } from '../catalogue/catalogue.module.js';
import { CurrencyModule } from '../currency/currency.module.js';
import { PricingController } from './pricing.controller.js';
import { PricingQueries } from './pricing.queries.js';

/** GET /v1/api/pricing/{slug}, its versions and its diff. */
@Module({
  imports: [AdmissionModule, CatalogueModule, CurrencyModule],
  controllers: [PricingController],
  providers: [PricingQueries],
})
export class PricingModule {}
