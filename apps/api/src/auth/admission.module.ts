import { Module } from '@nestjs/common';
import { AccessModule, KeyRevocationListener } from '#app/access';
import { RequestAdmission } from './request-admission.js';

/**
 * Admission of keyed requests (key, scope, plan, metering): every feature whose routes take an
 * API key imports it, for the key guard and for the read lane. KeyRevocationListener keeps the
 * key cache that admission reads in step with revocations announced by other processes.
 */
@Module({
  imports: [AccessModule],
  providers: [RequestAdmission, KeyRevocationListener],
  exports: [RequestAdmission],
})
export class AdmissionModule {}
