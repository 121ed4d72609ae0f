import { Module } from '@nestjs/common';
import { AdmissionModule } from '../auth/admission.module.js';
import { CurrencyModule } from '../currency/currency.module.js';
import { PlansController } from './plans.controller.js';
import { PlansQueries } from './plans.queries.js';

/** GET /v1/api/plans. */
@Module({
  imports: [AdmissionModule, CurrencyModule],
  controllers: [PlansController],
  providers: [PlansQueries],
})
export class PlansModule {}
