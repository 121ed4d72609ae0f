import { Module } from '@nestjs/common';
import { AdmissionModule } from '../auth/admission.module.js';
import { WebhooksController } from './webhooks.controller.js';

/** /v1/api/webhooks: a key's subscriptions to pricing changes (WebhookRepository does the I/O). */
@Module({
  imports: [AdmissionModule],
  controllers: [WebhooksController],
})
export class WebhooksModule {}
