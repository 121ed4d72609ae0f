import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '#app/config';
import { closeRedisConnection, createRedisConnection, type RedisConnection } from '#app/contracts';
import { Redis } from 'ioredis';
import type { LuaScript } from './metering/lua-script.js';

/**
 * The connection metering and key revocations use, and the names of their keys. A command fails
 * fast when Redis is away or stalls (one retry, a one-second deadline), so a request answers 503
 * instead of waiting; a command whose answer was lost is not sent again after a reconnection
 * (it may have been counted already: metering gives such a charge back by its id). It connects
 * on first use, so a command-line run that needs no Redis opens none.
 */
const COMMAND_DEADLINE_MS = 1_000;
const DEADLINE_TICK_MS = 100;

/** The error of a command past its deadline; the error filter answers it with 503. */
const pastDeadline = () => new Error('Command timed out');

@Injectable()
export class AccessRedis implements OnApplicationShutdown {
  readonly connection: RedisConnection;
  private readonly namespace: string;

  constructor(config: AppConfig) {
    this.connection = createRedisConnection(config.redis, 'access', {
      maxRetriesPerRequest: 1,
      // No commandTimeout: it would hide the reply of a command Redis still runs (see run()).
      autoResendUnfulfilledCommands: false,
      lazyConnect: true,
      // The counting of requests served side by side goes out in one write.
      enableAutoPipelining: true,
    });
    // A cluster's node connections never reconnect, so ioredis fails their commands itself.
    if (this.connection instanceof Redis) {
      const connection = this.connection;
      connection.on('close', () => failCommandsInFlight(connection));
    }
    this.namespace = config.redis.keyNamespace;
  }

  /** A key of one API key's counters; the id is the hash tag, so all of them share a slot. */
  meterKey(apiKeyId: string, counter: string): string {
    return `${this.namespace}:meter:{${apiKeyId}}:${counter}`;
  }

  /** The counter of one bucket of client addresses (authFailureBucket). */
  authFailuresKey(bucket: string): string {
    return `${this.namespace}:auth-failures:{${bucket}}`;
  }

  get revocationChannel(): string {
    return `${this.namespace}:keys:revoked`;
  }

  /**
   * Runs a script by its SHA-1, failing past the deadline. A stalled Redis, or a reconnection
   * that sends the command from ioredis's offline queue, may still run it after that:
   * `onLateReply` then gets its reply, so that a caller can undo what the script did.
   */
  run(
    script: LuaScript,
    keys: string[],
    args: (string | number)[],
    onLateReply?: (reply: unknown) => void,
  ): Promise<unknown> {
    return this.withinDeadline(this.evalsha(script, keys, args), onLateReply);
  }

  publish(channel: string, message: string): Promise<number> {
    return this.withinDeadline(this.connection.publish(channel, message));
  }

  /**
   * Sends the script itself when Redis does not know it, which also keeps it there. (A SCRIPT
   * LOAD would go to any node of a cluster, not necessarily the one that holds the keys.)
   */
  private async evalsha(
    script: LuaScript,
    keys: string[],
    args: (string | number)[],
  ): Promise<unknown> {
    try {
      return await this.connection.evalsha(script.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error as Error).message?.startsWith('NOSCRIPT')) throw error;
      return this.connection.eval(script.lua, keys.length, ...keys, ...args);
    }
  }

  /**
   * The deadline is Redis's to miss, not this process's. A busy event loop (hundreds of requests
   * arriving at once) can hold a command back before it is written, and run an expired timer
   * before it reads a reply already waiting on the socket. So the deadline is counted in ticks
   * of the loop, each counting for its nominal length however late it fires, and it is only
   * final after the I/O phase that follows the last tick (setImmediate runs after it).
   */
  private withinDeadline<T>(command: Promise<T>, onLateReply?: (reply: T) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      let late = false;
      let ticksLeft = COMMAND_DEADLINE_MS / DEADLINE_TICK_MS;
      const tick = () => {
        ticksLeft -= 1;
        if (ticksLeft > 0) {
          timer = setTimeout(tick, DEADLINE_TICK_MS);
          return;
        }
        setImmediate(() => {
          if (settled) return;
          late = true;
          reject(pastDeadline());
        });
      };
      let timer = setTimeout(tick, DEADLINE_TICK_MS);
      command.then(
        (reply) => {
          settled = true;
          clearTimeout(timer);
          if (!late) resolve(reply);
          else onLateReply?.(reply);
        },
        (error: unknown) => {
          settled = true;
          clearTimeout(timer);
          reject(error as Error);
        },
      );
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await closeRedisConnection(this.connection);
  }
}

/**
 * The commands whose answers the closed connection lost fail, as "Connection is closed.".
 * ioredis 6.0.0 leaves them unsettled when it reconnects at once without resending them
 * (redis/ioredis#2193, fixed upstream after 6.0.0), and an unsettled command holds up every
 * auto-pipelined one after it: metering would time out until the process restarts. The
 * `close` event comes on the next tick, before any reconnection replaces the queue.
 */
function failCommandsInFlight(connection: Redis): void {
  const lost = new Error('Connection is closed.');
  let item;
  while ((item = connection.commandQueue.shift())) item.command.reject(lost);
}
