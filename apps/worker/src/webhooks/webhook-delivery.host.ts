import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '#app/config';
import { createRedisConnection, isFinalFailure, WEBHOOK_QUEUE } from '#app/contracts';
import { Metrics } from '#app/observability';
import { WebhookRepository } from '#app/persistence';
import {
  sendWebhook,
  signatureHeader,
  type WebhookJobData,
  type WebhookJobResult,
} from '#app/webhooks';
import { isNotConnectionError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';

const USER_AGENT = 'pricing-intelligence-webhooks/1';

/**
 * Owns the BullMQ worker of the webhooks queue: each job POSTs one delivery, signed with the
 * webhook's secret. A failure (no answer in time, a non-2xx answer, an address refused) is
 * retried with exponential backoff until the job's attempts run out; the job then stays in
 * the queue's failed list, where the dashboard shows it and can retry it.
 */
@Injectable()
export class WebhookDeliveryHost implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookDeliveryHost.name);
  private connection?: Redis;
  private worker?: Worker<WebhookJobData, WebhookJobResult>;

  constructor(
    private readonly config: AppConfig,
    private readonly webhooks: WebhookRepository,
    private readonly metrics: Metrics,
  ) {}

  onApplicationBootstrap(): void {
    // Blocking commands of a worker must wait out a Redis outage instead of failing.
    this.connection = createRedisConnection(this.config.redis.url, 'webhook-worker', {
      maxRetriesPerRequest: null,
    });
    this.worker = new Worker(WEBHOOK_QUEUE, (job) => this.deliver(job), {
      connection: this.connection,
      prefix: this.config.redis.queuePrefix,
      concurrency: this.config.webhooks.concurrency,
      // Longer than a delivery can take, so a slow receiver does not make the job look stalled.
      lockDuration: Math.max(30_000, 2 * this.config.webhooks.timeoutMs),
    });
    this.worker.on('completed', (job, result) => {
      this.metrics.webhookDeliveries.inc({ outcome: result.outcome });
      this.logger.log({ ...jobFields(job), outcome: result.outcome }, 'webhook delivery done');
    });
    this.worker.on('failed', (job, error) => {
      if (!job) return;
      const outcome = isFinalFailure(job, error) ? 'failed' : 'retrying';
      this.metrics.webhookDeliveries.inc({ outcome });
      const fields = {
        ...jobFields(job),
        outcome,
        attempt: job.attemptsMade,
        reason: error.message,
      };
      if (outcome === 'failed') this.logger.warn(fields, 'webhook delivery failed for good');
      else this.logger.log(fields, 'webhook delivery will be retried');
    });
    this.worker.on('error', (error) => {
      if (isNotConnectionError(error)) this.logger.error(`webhook worker: ${error.message}`);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
    this.connection?.disconnect();
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
