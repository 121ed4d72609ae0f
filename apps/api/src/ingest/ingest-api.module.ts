import { Module } from '@nestjs/common';
import { IngestModule } from '#app/ingest';
import { AdmissionModule } from '../auth/admission.module.js';
import { IngestController } from './ingest.controller.js';

/** /v1/ingest: batches in and their status out; acceptance itself lives in libs/ingest. */
@Module({
  imports: [AdmissionModule, IngestModule],
  controllers: [IngestController],
})
export class IngestApiModule {}
