import type { RecordType } from '#app/domain';

/**
 * Queue and job names shared by the API, the worker and any Node pipeline that adds jobs itself.
 * These values are stored in Redis and referenced by running pipelines: never change them.
 */
export const INGEST_QUEUE = 'ingest';

/** Webhook deliveries: one job per webhook and extraction with changes it asked for. */
export const WEBHOOK_QUEUE = 'webhooks';

/**
 * Every queue of the service, for whatever shows or watches them all (the queue dashboard).
 * A new queue joins this list; like the names themselves, its values never change.
 */
export const QUEUES: readonly string[] = [INGEST_QUEUE, WEBHOOK_QUEUE];

/** One job name per record type: the job name is the record's `type`. */
export const INGEST_JOB_NAMES = {
  company: 'company',
  page: 'page',
  scrape: 'scrape',
  pricing: 'pricing',
  exchange_rate: 'exchange_rate',
} as const satisfies { [T in RecordType]: T };
