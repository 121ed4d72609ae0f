import type { AppConfig } from '#app/config';
import type { DefaultJobOptions } from 'bullmq';

/**
 * Options of every ingest job, taken from configuration so no call site picks its own.
 * Completed jobs stay for the retention time (the batch status reads them); failed jobs stay
 * until an operator retries or cleans them.
 */
export function ingestJobOptions(config: AppConfig): DefaultJobOptions {
  return {
    attempts: config.ingest.attempts,
    backoff: { type: 'exponential', delay: config.ingest.backoffMs },
    removeOnComplete: { age: config.ingest.retentionSeconds },
    removeOnFail: false,
  };
}
