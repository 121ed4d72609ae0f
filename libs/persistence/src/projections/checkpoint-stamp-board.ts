import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '#app/config';
import { createRedisConnection, type RedisConnection } from '#app/contracts';

/** What the board holds for some projectors, in the order they were asked for. */
export interface PublishedStamps {
  /** Each projector's published stamp, null where none is published. */
  stamps: (string | null)[];
  /** Each projector's fence: publish() only takes a stamp read after this fence was. */
  fences: string[];
}

/**
 * Where the fences and stamps of the projectors are kept on Redis: one hash of each, in one
 * hash slot (`{checkpoints}`), so that a script may touch both on a Redis Cluster.
 */
const READ = `
local stamps = redis.call('HMGET', KEYS[1], unpack(ARGV))
local fences = redis.call('HMGET', KEYS[2], unpack(ARGV))
for i = 1, #ARGV do stamps[#ARGV + i] = fences[i] or '0' end
return stamps`;

/** Moves the fence of each named projector and takes its stamp down. */
const UNSETTLE = `
for i = 1, #ARGV do
  redis.call('HINCRBY', KEYS[2], ARGV[i], 1)
  redis.call('HDEL', KEYS[1], ARGV[i])
end`;

/** ARGV: the expiry, then (name, fence, stamp) triples; a stamp whose fence moved is dropped. */
const PUBLISH = `
for i = 2, #ARGV, 3 do
  if (redis.call('HGET', KEYS[2], ARGV[i]) or '0') == ARGV[i + 1] then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 2])
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])`;

/**
 * A published stamp lives this long without a new publication: nothing stale can outlive it,
 * should a checkpoint ever move by other means than CheckpointStore.advance (an operator's SQL).
 */
const STAMP_LIFETIME_MS = 60_000;

const COMMAND_TIMEOUT_MS = 1_000;

/** How often the board tries again to take down stamps it could not while Redis was away. */
const OWED_RETRY_MS = 1_000;

interface BoardCommands {
  readCheckpointStamps(stamps: string, fences: string, ...names: string[]): Promise<string[]>;
  unsettleCheckpointStamps(stamps: string, fences: string, ...names: string[]): Promise<null>;
  publishCheckpointStamps(
    stamps: string,
    fences: string,
    lifetimeMs: number,
    ...triples: string[]
  ): Promise<null>;
}

/**
 * The checkpoint stamps of the read models, published on Redis so that an API process can tell
 * whether a read model moved without asking the database: a request reads them in one round
 * trip that runs beside its metering. Only CheckpointStore uses it, on PostgreSQL, and the
 * protocol is what keeps a published stamp from ever being older than the database's:
 *
 * - a projector's transaction, holding its checkpoint row's lock, moves the projector's fence
 *   and takes its stamp down before it moves the checkpoint (unsettle);
 * - a reader that found no stamp reads the fence, then the database's stamp under a share lock
 *   that refuses to wait (so never while a projector holds the row), and publishes the stamp
 *   only if the fence has not moved since (publish).
 *
 * A reader's stamp is thus either read before the projector took its lock (and taken down by
 * its unsettle) or after it committed. It connects on first use.
 *
 * Projections need only the database: while Redis cannot be reached (no reader can read a stamp
 * there either), a projector's unsettle is owed rather than awaited, and made as soon as Redis
 * answers, tried again every OWED_RETRY_MS. Until then a reader that finds a stamp published
 * before the outage may answer from it: Redis back, for a second at most.
 */
@Injectable()
export class CheckpointStampBoard implements OnApplicationShutdown {
  private readonly logger = new Logger(CheckpointStampBoard.name);
  private readonly connection: RedisConnection & BoardCommands;
  private readonly stampsKey: string;
  private readonly fencesKey: string;
  /** Projectors whose stamps are still to be taken down. */
  private readonly owed = new Set<string>();
  private retry: NodeJS.Timeout | undefined;

  constructor(config: AppConfig) {
    const connection = createRedisConnection(config.redis, 'checkpoints', {
      maxRetriesPerRequest: 1,
      // Nothing waits on a stalled Redis: a reader falls back to the database, a projector's
      // transaction rolls back and runs again (a late reply changes nothing that matters).
      commandTimeout: COMMAND_TIMEOUT_MS,
      lazyConnect: true,
      // The reads of requests served side by side go out in one write.
      enableAutoPipelining: true,
    });
    connection.defineCommand('readCheckpointStamps', { numberOfKeys: 2, lua: READ });
    connection.defineCommand('unsettleCheckpointStamps', { numberOfKeys: 2, lua: UNSETTLE });
    connection.defineCommand('publishCheckpointStamps', { numberOfKeys: 2, lua: PUBLISH });
    this.connection = connection as RedisConnection & BoardCommands;
    this.stampsKey = `${config.redis.keyNamespace}:{checkpoints}:stamps`;
    this.fencesKey = `${config.redis.keyNamespace}:{checkpoints}:fences`;
  }

  async read(names: readonly string[]): Promise<PublishedStamps> {
    const reply = await this.connection.readCheckpointStamps(
      this.stampsKey,
      this.fencesKey,
      ...names,
    );
    return { stamps: reply.slice(0, names.length), fences: reply.slice(names.length) };
  }

  /** Takes the named stamps down (with those still owed), or owes it while Redis is away. */
  async unsettle(names: readonly string[]): Promise<void> {
    for (const name of names) this.owed.add(name);
    // Redis away: the retries take these down with the rest, and no projector waits for it.
    if (this.retry) return;
    await this.settleOwed();
  }

  private async settleOwed(): Promise<void> {
    const names = [...this.owed];
    try {
      await this.connection.unsettleCheckpointStamps(this.stampsKey, this.fencesKey, ...names);
    } catch (error) {
      if (!this.retry) {
        this.logger.warn(
          `Redis unreachable (${(error as Error).message}): the stamps of ${names.join(', ')} ` +
            `will be taken down once it answers`,
        );
        this.retry = setInterval(() => void this.settleOwed(), OWED_RETRY_MS).unref();
      }
      return;
    }
    // Names owed meanwhile stay for the next call.
    for (const name of names) this.owed.delete(name);
    if (this.owed.size === 0 && this.retry) {
      clearInterval(this.retry);
      this.retry = undefined;
      this.logger.log('Redis answers again: the owed stamps are taken down');
    }
  }

  /** Publishes `stamps` (read from the database after `fences`) where no fence has moved. */
  async publish(names: readonly string[], fences: string[], stamps: string[]): Promise<void> {
    const triples = names.flatMap((name, index) => [name, fences[index]!, stamps[index]!]);
    await this.connection.publishCheckpointStamps(
      this.stampsKey,
      this.fencesKey,
      STAMP_LIFETIME_MS,
      ...triples,
    );
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.retry);
    if (this.owed.size > 0) {
      this.logger.warn(
        `stopping with the stamps of ${[...this.owed].join(', ')} still published on Redis: ` +
          'the read lane may answer from them until those projectors move again',
      );
    }
    if (this.connection.status === 'wait') {
      this.connection.disconnect();
      return;
    }
    await this.connection.quit().catch(() => undefined);
  }
}
