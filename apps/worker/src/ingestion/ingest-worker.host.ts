import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '#app/config';
import { INGEST_QUEUE, type IngestJobData, type IngestJobResult } from '#app/contracts';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { IngestProcessor } from './ingest.processor.js';

/** Owns the BullMQ worker of the ingest queue: started with the app, drained on shutdown. */
@Injectable()
export class IngestWorkerHost implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(IngestWorkerHost.name);
  private connection?: Redis;
  private worker?: Worker<IngestJobData, IngestJobResult>;

  constructor(
    private readonly config: AppConfig,
    private readonly processor: IngestProcessor,
  ) {}

  onApplicationBootstrap(): void {
    // Blocking commands of a worker must wait out a Redis outage instead of failing.
    this.connection = new Redis(this.config.redis.url, { maxRetriesPerRequest: null });
    this.worker = new Worker(INGEST_QUEUE, (job) => this.processor.process(job), {
      connection: this.connection,
      prefix: this.config.redis.queuePrefix,
      concurrency: this.config.ingest.concurrency,
      // A job whose worker died is handed to another worker after this long.
      lockDuration: this.config.ingest.lockMs,
      stalledInterval: this.config.ingest.lockMs,
    });
    this.worker.on('failed', (job, error) => {
      if (job && job.attemptsMade >= (job.opts.attempts ?? 1)) {
        this.logger.warn(`job ${job.id} failed for good: ${error.message}`);
      }
    });
    this.worker.on('error', (error) => this.logger.error(`ingest worker: ${error.message}`));
  }

  /** Stops taking jobs and waits for the ones in flight. */
  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
    await this.connection?.quit().catch(() => undefined);
  }
}
