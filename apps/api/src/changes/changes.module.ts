import { Module } from '@nestjs/common';
import { AdmissionModule } from '../auth/admission.module.js';
import { ChangesController } from './changes.controller.js';
import { ChangesQueries } from './changes.queries.js';

/** GET /v1/api/changes: the feed of pricing changes. */
@Module({
  imports: [AdmissionModule],
  controllers: [ChangesController],
  providers: [ChangesQueries],
})
export class ChangesModule {}
