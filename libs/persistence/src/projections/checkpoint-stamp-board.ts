import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '#app/config';
import { closeRedisConnection, createRedisConnection, type RedisConnection } from '#app/contracts';

/** What the board holds for some projectors, in the order they were asked for. */
export interface PublishedStamps {
  /** Each projector's published stamp, null where none is published or it has lapsed. */
  stamps: (string | null)[];
  /** Each projector's fence: publish() only takes a stamp read after this fence was. */
  fences: string[];
  /**
   * Each projector's stamp even past its lifetime, null where none is published: what a reader
   * may go on with while the database cannot tell it the current one in time.
   */
  lapsed: (string | null)[];
}

/**
 * Where the fences and stamps of the projectors are kept on Redis: one hash of each, in one
 * hash slot (`{checkpoints}`), so that a script may touch both on a Redis Cluster. A stamp is
 * kept with the time it was published, Redis's own (`<ms> <stamp>`), and read as current only
 * while it is younger than its lifetime (ARGV[1]); answers the current stamps, the fences, then
 * every stamp, lapsed ones too.
 */
const READ = `
local now = redis.call('TIME')
local oldest = now[1] * 1000 + math.floor(now[2] / 1000) - tonumber(ARGV[1])
local names = {unpack(ARGV, 2)}
local stamps = redis.call('HMGET', KEYS[1], unpack(names))
local fences = redis.call('HMGET', KEYS[2], unpack(names))
local answer = {}
for i = 1, #names do
  local at, stamp = string.match(stamps[i] or '', '^(%d+) (.+)$')
  answer[i] = (at and tonumber(at) >= oldest) and stamp or false
  answer[#names + i] = fences[i] or '0'
  answer[2 * #names + i] = stamp or false
end
return answer`;

/** Moves the fence of each named projector and takes its stamp down. */
const UNSETTLE = `
for i = 1, #ARGV do
  redis.call('HINCRBY', KEYS[2], ARGV[i], 1)
  redis.call('HDEL', KEYS[1], ARGV[i])
end`;

/**
 * ARGV: how long the hash is kept, then (name, fence, stamp) triples; a stamp whose fence moved
 * is dropped.
 */
const PUBLISH = `
local now = redis.call('TIME')
local at = now[1] * 1000 + math.floor(now[2] / 1000)
for i = 2, #ARGV, 3 do
  if (redis.call('HGET', KEYS[2], ARGV[i]) or '0') == ARGV[i + 1] then
    redis.call('HSET', KEYS[1], ARGV[i], at .. ' ' .. ARGV[i + 2])
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])`;

/**
 * A published stamp is read for this long after its publication, then read again from the
 * database and published anew: nothing stale outlives it, whatever was missed (a projector that
 * could not take its stamp down while Redis was away, a checkpoint moved by an operator's SQL).
 * Within it, so within the time that the contract gives a new file to show (5 s).
 */
export const STAMP_LIFETIME_MS = 5_000;

/**
 * How long the stamps are kept after the last publication, lapsed: through a stall of the
 * database (when no one can publish), a request goes on with them rather than wait for it, so
 * they must outlast the answers kept under them (READ_CACHE_SECONDS, a minute by default; an
 * answer kept longer is read again from the database once the stall has lasted an hour). A
 * namespace no longer read leaves nothing behind past it.
 */
const LAPSED_STAMPS_KEPT_MS = 60 * 60_000;

const COMMAND_TIMEOUT_MS = 1_000;

interface BoardCommands {
  readCheckpointStamps(
    stamps: string,
    fences: string,
    lifetimeMs: number,
    ...names: string[]
  ): Promise<string[]>;
  unsettleCheckpointStamps(stamps: string, fences: string, ...names: string[]): Promise<null>;
  publishCheckpointStamps(
    stamps: string,
    fences: string,
    keptMs: number,
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
 * there either), a projector goes on without taking its stamp down, and the stamp lapses on its
 * own, STAMP_LIFETIME_MS after it was published.
 */
@Injectable()
export class CheckpointStampBoard implements OnApplicationShutdown {
  private readonly logger = new Logger(CheckpointStampBoard.name);
  private readonly connection: RedisConnection & BoardCommands;
  private readonly stampsKey: string;
  private readonly fencesKey: string;
  /** Set while Redis could not be told of a moved checkpoint, so that it is logged once. */
  private unreachable = false;

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
      STAMP_LIFETIME_MS,
      ...names,
    );
    const count = names.length;
    return {
      stamps: reply.slice(0, count),
      fences: reply.slice(count, 2 * count),
      lapsed: reply.slice(2 * count),
    };
  }

  /**
   * Moves the named projectors' fences and takes their stamps down. While Redis cannot be
   * reached, the projector goes on without waiting for it (its stamps lapse on their own), and
   * the take-down is still sent, to tell when Redis answers again.
   */
  async unsettle(names: readonly string[]): Promise<void> {
    const takingDown = this.connection
      .unsettleCheckpointStamps(this.stampsKey, this.fencesKey, ...names)
      .then(
        () => this.reachable(true),
        (error: unknown) => this.reachable(false, error as Error),
      );
    if (!this.unreachable) await takingDown;
  }

  private reachable(answered: boolean, error?: Error): void {
    if (answered === !this.unreachable) return;
    this.unreachable = !answered;
    if (answered) {
      this.logger.log('Redis answers again: stamps are taken down as before');
    } else {
      this.logger.warn(
        `Redis unreachable (${error?.message}): the projectors go on, and the stamps published ` +
          `there lapse within ${STAMP_LIFETIME_MS} ms`,
      );
    }
  }

  /** Publishes `stamps` (read from the database after `fences`) where no fence has moved. */
  async publish(names: readonly string[], fences: string[], stamps: string[]): Promise<void> {
    const triples = names.flatMap((name, index) => [name, fences[index]!, stamps[index]!]);
    await this.connection.publishCheckpointStamps(
      this.stampsKey,
      this.fencesKey,
      LAPSED_STAMPS_KEPT_MS,
      ...triples,
    );
  }

  async onApplicationShutdown(): Promise<void> {
    // A Redis that did not answer a take-down would not answer a QUIT either.
    await closeRedisConnection(this.connection, { now: this.unreachable });
  }
}
