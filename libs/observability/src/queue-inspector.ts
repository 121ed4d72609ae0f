import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '#app/config';
import { createRedisConnection, QUEUES, type RedisConnection } from '#app/contracts';
import { Queue } from 'bullmq';

/** The states whose job counts the metrics and the queue health report. */
export const JOB_STATES = [
  'waiting',
  'prioritized',
  'active',
  'delayed',
  'completed',
  'failed',
  'waiting-children',
] as const;
export type JobState = (typeof JOB_STATES)[number];

interface QueueCounts {
  queue: string;
  paused: boolean;
  counts: Record<JobState, number>;
}

/**
 * Read-only views of every queue, on a connection of their own that fails fast when Redis is
 * away (a health check must answer, not wait).
 */
@Injectable()
export class QueueInspector implements OnApplicationShutdown {
  readonly connection: RedisConnection;
  private readonly queues: Queue[];

  constructor(config: AppConfig) {
    this.connection = createRedisConnection(config.redis, 'inspector', {
      maxRetriesPerRequest: 1,
      commandTimeout: 1_000,
      lazyConnect: true,
    });
    this.queues = QUEUES.map(
      (name) => new Queue(name, { connection: this.connection, prefix: config.redis.queuePrefix }),
    );
    // The connection reports outages itself.
    for (const queue of this.queues) queue.on('error', () => undefined);
  }

  /**
   * Job counts by state of every queue, and whether it is paused (BullMQ keeps a paused
   * queue's jobs in its waiting list).
   */
  async counts(): Promise<QueueCounts[]> {
    return Promise.all(
      this.queues.map(async (queue) => {
        const [counts, paused] = await Promise.all([
          queue.getJobCounts(...JOB_STATES),
          queue.isPaused(),
        ]);
        return { queue: queue.name, paused, counts: counts as Record<JobState, number> };
      }),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.queues.map((queue) => queue.close()));
    this.connection.disconnect();
  }
}
