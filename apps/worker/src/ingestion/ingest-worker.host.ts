import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '#app/config';
import {
  INGEST_QUEUE,
  createRedisConnection,
  isFinalFailure,
  type IngestJobData,
  type IngestJobResult,
} from '#app/contracts';
import { Metrics } from '#app/observability';
import { isDatabaseUnavailable } from '#app/persistence';
import { isNotConnectionError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { IngestProcessor } from './ingest.processor.js';

/** How long a worker takes no job after one met a database it could not reach. */
const DATABASE_RETRY_MS = 1_000;

/** Owns the BullMQ worker of the ingest queue: started with the app, drained on shutdown. */
@Injectable()
export class IngestWorkerHost implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(IngestWorkerHost.name);
  private connection?: Redis;
  private worker?: Worker<IngestJobData, IngestJobResult>;
  /** Set while jobs meet an unreachable database, so that the outage is logged once. */
  private databaseDown = false;

  constructor(
    private readonly config: AppConfig,
    private readonly processor: IngestProcessor,
    private readonly metrics: Metrics,
  ) {}

  onApplicationBootstrap(): void {
    // Blocking commands of a worker must wait out a Redis outage instead of failing.
    this.connection = createRedisConnection(this.config.redis.url, 'worker', {
      maxRetriesPerRequest: null,
    });
    this.worker = new Worker(INGEST_QUEUE, (job) => this.process(job), {
      connection: this.connection,
      prefix: this.config.redis.queuePrefix,
      concurrency: this.config.ingest.concurrency,
      // A job whose worker died is handed to another worker after this long.
      lockDuration: this.config.ingest.lockMs,
      stalledInterval: this.config.ingest.lockMs,
      // A stall (a lock that lapsed) is no fault of the record, and running a job again is safe
      // (appends are idempotent). BullMQ fails a job at its second stall by default, and one
      // Redis outage longer than the lock can cause two: the run it cut off, then the rerun,
      // whose lock stops being renewed when the first run's clean-up untracks the same job id.
      maxStalledCount: this.config.ingest.attempts,
    });
    this.worker.on('completed', (job, result) => {
      this.metrics.jobs.inc({ type: job.name, outcome: result.outcome });
      this.logger.log({ ...jobFields(job), outcome: result.outcome }, 'job done');
    });
    this.worker.on('failed', (job, error) => {
      if (!job) return;
      // An invalid record or a conflict is an UnrecoverableError: final at once.
      const outcome = isFinalFailure(job, error) ? 'failed' : 'retrying';
      this.metrics.jobs.inc({ type: job.name, outcome });
      const fields = {
        ...jobFields(job),
        outcome,
        attempt: job.attemptsMade,
        reason: error.message,
      };
      if (outcome === 'failed') this.logger.warn(fields, 'job failed for good');
      else this.logger.log(fields, 'job will be retried');
    });
    // An unreachable Redis is reported once by the connection itself, not at every retry.
    this.worker.on('error', (error) => {
      if (isNotConnectionError(error)) this.logger.error(`ingest worker: ${error.message}`);
    });
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
      if (!isDatabaseUnavailable(error) || !this.worker) throw error;
      if (!this.databaseDown) {
        this.logger.warn(
          `database unreachable (${(error as Error).message}): jobs go back to the queue ` +
            `without spending an attempt, and are tried again every ${DATABASE_RETRY_MS} ms`,
        );
      }
      this.databaseDown = true;
      await this.worker.rateLimit(DATABASE_RETRY_MS);
      throw Worker.RateLimitError();
    }
  }

  /**
   * Stops taking jobs and waits for the ones in flight, for at most the grace time; a job still
   * running then is left to BullMQ's stalled-job check, which hands it to another worker.
   */
  async onApplicationShutdown(): Promise<void> {
    if (this.worker) {
      const worker = this.worker;
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<'timeout'>((done) => {
        timer = setTimeout(() => done('timeout'), this.config.shutdownGraceMs);
      });
      // pause() stops taking jobs at once and resolves when the running ones have finished.
      const drained = await Promise.race([
        worker.pause().then(() => 'drained' as const),
        graceOver,
      ]);
      clearTimeout(timer);
      if (drained === 'timeout') {
        this.logger.warn('shutdown grace time over: leaving unfinished jobs to other workers');
      }
      // The first close decides: forced, it waits for nothing (an unfinished job's lock expires
      // and the stalled-job check hands it to another worker).
      await worker.close(true);
    }
    await this.connection?.quit().catch(() => undefined);
  }
}

/** What a job's log lines carry: never the record's content, only where it came from. */
function jobFields(job: Job<IngestJobData>) {
  return {
    job_id: job.id,
    type: job.name,
    batch_id: job.data.batchId,
    request_id: job.data.requestId,
  };
}
