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
