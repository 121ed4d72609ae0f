import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '#app/config';
import { WEBHOOK_QUEUE } from '#app/contracts';
import { Metrics } from '#app/observability';
import { WebhookRepository } from '#app/persistence';
import {
  sendWebhook,
  signatureHeader,
  type WebhookJobData,
  type WebhookJobResult,
} from '#app/webhooks';
import type { Job } from 'bullmq';
import { QueueWorker } from '../queue-worker.js';

const USER_AGENT = 'pricing-intelligence-webhooks/1';

/**
 * Owns the BullMQ worker of the webhooks queue: each job POSTs one delivery, signed with the
 * webhook's secret. A failure (no answer in time, a non-2xx answer, an address refused) is
 * retried with exponential backoff until the job's attempts run out; the job then stays in
 * the queue's failed list, where the dashboard shows it and can retry it.
 */
@Injectable()
export class WebhookDeliveryHost implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly worker: QueueWorker<WebhookJobData, WebhookJobResult>;

  constructor(
    private readonly config: AppConfig,
    private readonly webhooks: WebhookRepository,
    metrics: Metrics,
  ) {
    this.worker = new QueueWorker(config, new Logger(WebhookDeliveryHost.name), {
      queue: WEBHOOK_QUEUE,
      name: 'webhook',
      connectionName: 'webhook-worker',
      noun: 'webhook delivery',
      options: {
        concurrency: config.webhooks.concurrency,
        // Longer than a delivery can take, so a slow receiver does not make the job look stalled.
        lockDuration: Math.max(30_000, 2 * config.webhooks.timeoutMs),
      },
      run: (job) => this.deliver(job),
      count: (_job, outcome) => metrics.webhookDeliveries.inc({ outcome }),
      fields: jobFields,
    });
  }

  onApplicationBootstrap(): void {
    this.worker.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.worker.stop();
  }

  private async deliver(job: Job<WebhookJobData, WebhookJobResult>): Promise<WebhookJobResult> {
    const webhook = await this.webhooks.findById(job.data.webhookId);
    if (!webhook) return { outcome: 'webhook_deleted' };
    const body = JSON.stringify(job.data.payload);
    const status = await sendWebhook({
      url: webhook.url,
      body,
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'x-webhook-id': webhook.id,
        'x-delivery-id': job.data.payload.id,
        'x-delivery-attempt': String(job.attemptsMade + 1),
        // Signed at each attempt, so a retry hours later still passes a receiver's age check.
        'x-signature': signatureHeader(webhook.secret, body, Math.floor(Date.now() / 1000)),
      },
      timeoutMs: this.config.webhooks.timeoutMs,
      allowPrivate: this.config.webhooks.allowPrivateUrls,
    });
    return { outcome: 'delivered', status };
  }
}

/** What a log line says of a delivery: never its URL (it may carry a token) nor its secret. */
function jobFields(job: Job<WebhookJobData>) {
  return { job_id: job.id, webhook_id: job.data.webhookId };
}
