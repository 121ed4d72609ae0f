import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '#app/config';
import {
  INGEST_QUEUE,
  recordsOfJob,
  type IngestJobData,
  type IngestJobResult,
} from '#app/contracts';
import { isDatabaseUnavailable } from '#app/persistence';
import { Worker, type Job } from 'bullmq';
import { QueueWorker } from '../queue-worker.js';
import { IngestProcessor } from './ingest.processor.js';

/** How long a worker takes no job after one met a database it could not reach. */
const DATABASE_RETRY_MS = 1_000;

/** Owns the BullMQ worker of the ingest queue: started with the app, drained on shutdown. */
@Injectable()
export class IngestWorkerHost implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(IngestWorkerHost.name);
  private readonly worker: QueueWorker<IngestJobData, IngestJobResult>;
  /** Set while jobs meet an unreachable database, so that the outage is logged once. */
  private databaseDown = false;

  constructor(
    config: AppConfig,
    private readonly processor: IngestProcessor,
  ) {
    this.worker = new QueueWorker(config, this.logger, {
      queue: INGEST_QUEUE,
      name: 'ingest',
      connectionName: 'worker',
      noun: 'job',
      options: {
        concurrency: config.ingest.concurrency,
        // A job whose worker died is handed to another worker after this long.
        lockDuration: config.ingest.lockMs,
        stalledInterval: config.ingest.lockMs,
        // A stall (a lock that lapsed) is no fault of the record, and running a job again is
        // safe (appends are idempotent). BullMQ fails a job at its second stall by default, and
        // one Redis outage longer than the lock can cause two: the run it cut off, then the
        // rerun, whose lock stops being renewed when the first run's clean-up untracks the same
        // job id.
        maxStalledCount: config.ingest.attempts,
      },
      run: (job) => this.process(job),
      // The processor counts records, which a chunk's job holds many of.
      failedForGood: (job, error) => processor.failedForGood(job, error),
      fields: jobFields,
    });
  }

  onApplicationBootstrap(): void {
    this.worker.start();
  }

  /**
   * Runs a job. One that meets an unreachable database goes back to the queue without spending
   * an attempt, and this worker takes no job for a moment (BullMQ's manual rate limit): an
   * outage is not the record's fault, and may outlast every attempt's backoff.
   */
  private async process(job: Job<IngestJobData, IngestJobResult>): Promise<IngestJobResult> {
    try {
      const result = await this.processor.process(job);
      if (this.databaseDown) this.logger.log('database reachable again: jobs resume');
      this.databaseDown = false;
      return result;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      if (!this.databaseDown) {
        this.logger.warn(
          `database unreachable (${(error as Error).message}): jobs go back to the queue ` +
            `without spending an attempt, and are tried again every ${DATABASE_RETRY_MS} ms`,
        );
      }
      this.databaseDown = true;
      await this.worker.pauseFor(DATABASE_RETRY_MS);
      throw Worker.RateLimitError();
    }
  }

  onApplicationShutdown(): Promise<void> {
    return this.worker.stop();
  }
}

/** What a job's log lines carry: never the record's content, only where it came from. */
function jobFields(job: Job<IngestJobData>) {
  // A malformed job (a pipeline's mistake) is logged too.
  const data = job.data as Partial<IngestJobData> | null;
  const records = data && recordsOfJob(data as IngestJobData);
  return {
    job_id: job.id,
    type: job.name,
    records: Array.isArray(records) ? records.length : null,
    batch_id: data?.batchId ?? null,
    request_id: data?.requestId ?? null,
  };
}
