import { Module } from '@nestjs/common';
import { AdmissionModule } from '../auth/admission.module.js';
import { UsageController } from './usage.controller.js';

/** GET /v1/api/usage: the reading the admission of the request itself took. */
@Module({
  imports: [AdmissionModule],
  controllers: [UsageController],
})
export class UsageModule {}
