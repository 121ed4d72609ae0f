import { execSync } from 'node:child_process';
import { Redis } from 'ioredis';

/**
 * Once per run: Redis must answer (tests use a real one), and the compiled output must be
 * fresh, because the multi-process tests start `node dist/...` as real child processes.
 */
export default async function setup(): Promise<void> {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch {
    throw new Error('Tests need a real Redis: start one on 127.0.0.1:6379 or set REDIS_URL');
  } finally {
    redis.disconnect();
  }
  execSync('npm run build', { stdio: 'inherit' });
}
