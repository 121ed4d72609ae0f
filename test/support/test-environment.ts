import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type AppConfig } from '#app/config';
import { createRedisConnection } from '#app/contracts';
import pg from 'pg';
import { deleteKeysMatching } from './redis-keys.js';

/**
 * Where one test file keeps its data: its own SQLite file or PostgreSQL schema, and its own
 * BullMQ prefix, so files can run in parallel against the same servers.
 * TEST_DATABASE_URL picks the database: unset or `sqlite` for SQLite, or a postgres:// URL.
 * Redis is the machine's (REDIS_URL), or the Redis Cluster that an override of
 * REDIS_CLUSTER_NODES names: REDIS_URL is then left empty, which counts as unset.
 */
export interface TestEnvironment {
  /** Environment variables for loadConfig or for a child process. */
  env: Record<string, string>;
  config(overrides?: Record<string, string>): AppConfig;
  dialect: 'sqlite' | 'postgres';
  /** Drops the schema, or deletes the SQLite file's directory (`rm -rf data`); Redis stays. */
  dropDatabase(): Promise<void>;
  /** Drops the database and deletes the file's Redis keys. */
  cleanup(): Promise<void>;
}

export function testEnvironment(overrides: Record<string, string> = {}): TestEnvironment {
  const id = randomBytes(5).toString('hex');
  const databaseUrl = process.env.TEST_DATABASE_URL ?? 'sqlite';
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  // Where cleanup deletes the keys: an override of REDIS_URL may be a server the test stopped.
  const keyStore = overrides.REDIS_CLUSTER_NODES
    ? { REDIS_CLUSTER_NODES: overrides.REDIS_CLUSTER_NODES }
    : { REDIS_URL: redisUrl };
  const dialect = databaseUrl.startsWith('postgres') ? 'postgres' : 'sqlite';
  const directory = dialect === 'sqlite' ? mkdtempSync(join(tmpdir(), 'pricing-test-')) : null;
  const schema = `t_${id}`;
  const prefix = `{test-${id}}`;
  const env: Record<string, string> = {
    DATABASE_URL: directory ? `sqlite:${join(directory, 'test.db')}` : databaseUrl,
    DATABASE_SCHEMA: schema,
    REDIS_URL: overrides.REDIS_CLUSTER_NODES ? '' : redisUrl,
    QUEUE_PREFIX: prefix,
    ADMIN_TOKEN: `admin-token-${id}-0123456789`,
    DEMO_DATA: 'false',
    INGEST_BACKOFF_MS: '100',
    INGEST_ATTEMPTS: '5',
    INGEST_LOCK_MS: '2000',
    PROJECTION_POLL_MS: '50',
    LOG_LEVEL: 'warn',
    // Worker processes of parallel test files must not fight over one port.
    WORKER_METRICS_PORT: '0',
    ...overrides,
  };
  const dropDatabase = async () => {
    if (directory) {
      rmSync(directory, { recursive: true, force: true });
      return;
    }
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  };
  return {
    env,
    dialect,
    config: (more = {}) => loadConfig({ ...env, ...more }),
    dropDatabase,
    async cleanup() {
      const redis = createRedisConnection(loadConfig(keyStore).redis, 'test-cleanup');
      try {
        // The queues under {test-<id>}, the counters under test-<id>: (QUEUE_PREFIX's namespace).
        for (const pattern of [`${prefix}*`, `test-${id}:*`]) {
          await deleteKeysMatching(redis, pattern);
        }
      } finally {
        redis.disconnect();
      }
      await dropDatabase();
    },
  };
}
