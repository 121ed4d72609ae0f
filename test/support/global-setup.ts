import { execSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { DEFAULT_REDIS_URL, startLocalRedisIfNeeded } from '../../apps/api/src/local-redis.js';

/**
 * Once per run: a real Redis must answer (started from PATH, as `npm start` does, when none
 * does on the default address), and the compiled output must be fresh, because the
 * multi-process tests run `node dist/...` as real child processes.
 */
export default async function setup(): Promise<() => void> {
  const url = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
  const localRedis =
    url === DEFAULT_REDIS_URL ? await startLocalRedisIfNeeded('./data/test-redis') : null;
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch {
    throw new Error(`Tests need a real Redis: none answers at ${url}`);
  } finally {
    redis.disconnect();
  }
  execSync('npm run build', { stdio: 'inherit' });
  return () => {
    localRedis?.kill('SIGTERM');
  };
}
