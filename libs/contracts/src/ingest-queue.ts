import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '#app/config';
import { Queue } from 'bullmq';
import calculateSlot from 'cluster-key-slot';
import { Redis } from 'ioredis';
import { ingestJobOptions } from './ingest-queue-options.js';
import { INGEST_QUEUE } from './queues.js';
import {
  closeRedisConnection,
  createRedisConnection,
  type RedisConnection,
} from './redis-connection.js';
import type { IngestJobData, IngestJobResult } from './ingest-job.js';

/** The connection a batch's jobs went out on, as `IngestQueue.replicated` checks it. */
export interface QueueConnectionMark {
  node: Redis;
  clientId: number;
}

/** A Redis user not allowed the command (an ACL), or a server or proxy that lacks it. */
const COMMAND_REFUSED = /^(NOPERM|ERR unknown command)/;

/** The producer side of the ingest queue, with the configured default job options. */
@Injectable()
export class IngestQueue implements OnApplicationShutdown {
  readonly queue: Queue<IngestJobData, IngestJobResult>;
  private readonly connection: RedisConnection;
  private readonly logger = new Logger(IngestQueue.name);
  /** The replication check refused is logged once a process. */
  private refusalLogged = false;

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

  /** Plain commands on the queue's connection (batch counters live next to the jobs). */
  get redis(): RedisConnection {
    return this.connection;
  }

  /**
   * The connection the queue's writes are about to go to: its master's, and the server's id for
   * it. Taken before a batch's first write, so that `replicated` can tell the same connection.
   */
  async connectionMark(): Promise<QueueConnectionMark | null> {
    const node = this.queueNode();
    return node ? { node, clientId: (await node.call('CLIENT', 'ID')) as number } : null;
  }

  /**
   * Whether a replica of the queue's master holds every job added since `mark` (Redis's WAIT, for
   * at most `timeoutMs`), so that a failover to it loses none; true at once when the master has
   * no replica (run it with `min-replicas-to-write` for a replica that went away to stop the
   * writes). WAIT counts the writes of the connection it runs on, so the answer is no when that
   * is not the marked one any more (a reconnection, or another master for the queue's slot).
   * Meanwhile the connection's other commands (a batch status) wait behind it: for at most
   * `timeoutMs`, while a replica lags.
   */
  async replicated(mark: QueueConnectionMark | null, timeoutMs: number): Promise<boolean> {
    const node = this.queueNode();
    if (!mark || node !== mark.node) return false;
    try {
      const [role, , replicas] = (await node.call('ROLE')) as [string, unknown, unknown[]?];
      // A node no longer master (demoted under the client's old map of the slots) vouches for
      // nothing.
      if (role !== 'master') return false;
      if (!replicas?.length) return true;
      // The connection's id after the WAIT: a WAIT sent again on a new connection is answered
      // under a new id.
      const [[, acknowledged], [, clientId]] = (await node
        .pipeline()
        .call('WAIT', 1, timeoutMs)
        .call('CLIENT', 'ID')
        .exec()) as [[null, number], [null, number]];
      return clientId === mark.clientId && acknowledged >= 1;
    } catch (error) {
      if (!(error instanceof Error) || !COMMAND_REFUSED.test(error.message)) throw error;
      if (!this.refusalLogged) {
        this.logger.error(
          `Redis refuses the replication check (${error.message}): batches are acknowledged ` +
            "without waiting for a replica. Allow ROLE, WAIT and CLIENT ID to the service's user",
        );
        this.refusalLogged = true;
      }
      return true;
    }
  }

  private queueNode(): Redis | undefined {
    if (this.connection instanceof Redis) return this.connection;
    const master = this.connection.slots[calculateSlot(this.queue.toKey('any'))]?.[0];
    return this.connection
      .nodes('master')
      .find(({ options }) => `${options.host}:${options.port}` === master);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
    await closeRedisConnection(this.connection);
  }
}
