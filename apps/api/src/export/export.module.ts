import { Module } from '@nestjs/common';
import { AdmissionModule } from '../auth/admission.module.js';
import { CurrencyModule } from '../currency/currency.module.js';
import { ExportController } from './export.controller.js';
import { ExportQueries } from './export.queries.js';

/** GET /v1/api/export/pricing: every extraction after a feed cursor, streamed. */
@Module({
  imports: [AdmissionModule, CurrencyModule],
  controllers: [ExportController],
  providers: [ExportQueries],
})
export class ExportModule {}
