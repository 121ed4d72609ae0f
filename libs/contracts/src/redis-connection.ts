import { Logger } from '@nestjs/common';
import { Redis, type RedisOptions } from 'ioredis';

/**
 * An ioredis connection that reports an outage once when it starts and once when it ends,
 * instead of one unhandled-error stack per reconnection attempt.
 */
export function createRedisConnection(
  url: string,
  name: string,
  options: RedisOptions = {},
): Redis {
  const logger = new Logger(`Redis:${name}`);
  const connection = new Redis(url, options);
  let down = false;
  connection.on('error', (error: Error) => {
    if (down) return;
    down = true;
    logger.warn(`unreachable (${error.message}); retrying`);
  });
  connection.on('ready', () => {
    if (!down) return;
    down = false;
    logger.log('reachable again');
  });
  return connection;
}

/** Redis answers errors with these when it cannot take a command for now. */
const REDIS_REFUSALS = /^(OOM|MISCONF|READONLY|BUSY|MASTERDOWN|LOADING|TRYAGAIN|CLUSTERDOWN) /;

/**
 * Redis cannot serve a command for now: unreachable (ioredis gave up, the connection closed),
 * stalled (the command timed out), or refusing it (out of memory, read-only replica, loading).
 * ioredis rejects a closed connection and a timeout with a plain Error, so its message is all
 * there is to recognise them by; it is read here, beside the connection, and nowhere else.
 */
export function isRedisUnavailable(error: unknown): boolean {
  const { name, message } = (error ?? {}) as { name?: string; message?: string };
  return (
    name === 'MaxRetriesPerRequestError' ||
    message === 'Connection is closed.' ||
    message === 'Command timed out' ||
    (name === 'ReplyError' && REDIS_REFUSALS.test(message ?? ''))
  );
}
