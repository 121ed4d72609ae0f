export * from './queues.js';
export * from './ingest-job.js';
export * from './record-validation.js';
export * from './ingest-queue-options.js';
export * from './ingest-queue.js';
export * from './redis-connection.js';
export * from './job-failure.js';
