/**
 * Queue names shared by the API, the worker and any Node pipeline that adds jobs itself (a job's
 * name is `chunk`, or a single record's `type`: IngestJobData).
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
