import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '#app/config';
import { Queue } from 'bullmq';
import { ingestJobOptions } from './ingest-queue-options.js';
import { INGEST_QUEUE } from './queues.js';
import {
  closeRedisConnection,
  createRedisConnection,
  type RedisConnection,
} from './redis-connection.js';
import type { IngestJobData, IngestJobResult } from './ingest-job.js';

/** The producer side of the ingest queue, with the configured default job options. */
@Injectable()
export class IngestQueue implements OnApplicationShutdown {
  readonly queue: Queue<IngestJobData, IngestJobResult>;
  private readonly connection: RedisConnection;

  constructor(config: AppConfig) {
    // A producer fails fast when Redis is away, so a request can answer 503 instead of hanging.
    this.connection = createRedisConnection(config.redis, 'producer', {
      maxRetriesPerRequest: 1,
    });
    this.queue = new Queue(INGEST_QUEUE, {
      connection: this.connection,
      prefix: config.redis.queuePrefix,
      defaultJobOptions: ingestJobOptions(config),
    });
    // The connection reports outages itself; without a listener the queue prints each one.
    this.queue.on('error', () => undefined);
  }

  /** Plain commands on the queue's connection (batch manifests live next to the jobs). */
  get redis(): RedisConnection {
    return this.connection;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
    await closeRedisConnection(this.connection);
  }
}
