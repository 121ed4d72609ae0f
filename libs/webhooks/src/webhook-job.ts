import type { AppConfig } from '#app/config';
import type { DefaultJobOptions } from 'bullmq';

/** The body of one delivery: the changes of one extraction that the webhook asked for. */
interface WebhookPayload {
  /** The delivery's id, the same on every attempt: a receiver drops one it has seen. */
  id: string;
  type: 'pricing.changes';
  webhook_id: string;
  /** In the change feed's representation and order. */
  changes: Record<string, unknown>[];
}

/**
 * A job of the webhooks queue. It holds no secret and no URL: the worker reads both when it
 * delivers, so a deleted webhook is sent nothing more and the queue dashboard shows no secret.
 */
export interface WebhookJobData {
  webhookId: string;
  payload: WebhookPayload;
}

export interface WebhookJobResult {
  outcome: 'delivered' | 'webhook_deleted';
  status?: number;
}

/** The job name of every delivery. */
export const WEBHOOK_JOB_NAME = 'pricing.changes';

/**
 * Options of every delivery job: retried with exponential backoff; kept a week either way, for
 * the dashboard and so that a delivery queued twice within that time is one job (its id is
 * deterministic).
 */
export function webhookJobOptions(config: AppConfig): DefaultJobOptions {
  const week = 7 * 24 * 3600;
  return {
    attempts: config.webhooks.attempts,
    backoff: { type: 'exponential', delay: config.webhooks.backoffMs },
    removeOnComplete: { age: week },
    removeOnFail: { age: week },
  };
}
