import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { loadConfig, type DatabaseConfig } from '#app/config';
import { createRedisConnection } from '#app/contracts';
import { deleteKeysMatching } from '../../test/support/redis-keys.js';
import type { BenchContext } from './scenario.js';
import { ROOT, CLI_NODE_FLAGS, startServices, type ServiceProcess } from './service.js';

const run = promisify(execFile);

/** Limits no benchmark reaches, so every request is admitted and counted. */
const BENCH_PLANS = {
  bench: {
    requests_per_hour: 1_000_000_000,
    credits_per_month: 1_000_000_000,
    features: ['companies', 'pages', 'files', 'pricing'],
  },
};

/**
 * A run's own database and Redis namespace, migrated, with the environment variables that point
 * the API, the worker and the CLI at them: on PostgreSQL a schema of its own, on SQLite a
 * database file in a temporary directory.
 */
export interface ServiceEnvironment {
  env: Record<string, string>;
  /** The database the processes use, as their configuration reads DATABASE_URL. */
  database: DatabaseConfig;
  /** Runs the built CLI (`node dist/apps/worker/src/cli.js ...`) with the run's env. */
  cli(...args: string[]): Promise<string>;
  /** Creates a key on the unlimited bench plan; returns its secret. */
  createKey(scopes?: string): Promise<string>;
  /** Drops the schema (or deletes the SQLite file) and the Redis keys. */
  cleanup(): Promise<void>;
}

/** A scenario's environment on PostgreSQL, with a pool for its own queries. */
export interface BenchEnvironment extends ServiceEnvironment {
  schema: string;
  /** A pool on the scenario's database whose connections use its schema. */
  pool: pg.Pool;
}

export async function benchEnvironment(
  context: BenchContext,
  name: string,
): Promise<BenchEnvironment> {
  const environment = await serviceEnvironment(context, name);
  if (environment.database.type !== 'postgres') {
    await environment.cleanup();
    throw new Error(`the benchmarks run on PostgreSQL, not ${context.databaseUrl}`);
  }
  const { schema } = environment.database;
  const pool = new pg.Pool({
    connectionString: context.databaseUrl,
    max: 8,
    options: `-c search_path=${schema}`,
  });
  return {
    ...environment,
    schema,
    pool,
    async cleanup() {
      await pool.end();
      await environment.cleanup();
    },
  };
}

/**
 * The servers a run's processes use: `databaseUrl` is a PostgreSQL server's URL, or `sqlite` for
 * a new database file; `redisClusterNodes`, when set, is a Redis Cluster used instead of
 * `redisUrl`; `databaseReadUrls`, replicas of the PostgreSQL server for the read API.
 */
export type ServiceContext = Pick<BenchContext, 'databaseUrl' | 'redisUrl'> & {
  redisClusterNodes?: string;
  databaseReadUrls?: string;
};

export async function serviceEnvironment(
  context: ServiceContext,
  name: string,
): Promise<ServiceEnvironment> {
  const sqlite = context.databaseUrl === 'sqlite';
  if (!sqlite && !/^postgres(ql)?:\/\//.test(context.databaseUrl)) {
    throw new Error(`the database must be a postgres:// URL or sqlite, not ${context.databaseUrl}`);
  }
  const id = `${name.replace(/[^a-z0-9]/g, '_')}_${randomBytes(3).toString('hex')}`;
  const prefix = `{bench-${id}}`;
  const directory = mkdtempSync(join(tmpdir(), 'pricing-bench-'));
  const plansFile = join(directory, 'plans.json');
  writeFileSync(plansFile, JSON.stringify(BENCH_PLANS));
  // The bench's own loading of data waits as long as it takes (0: no statement timeout).
  const database: DatabaseConfig = sqlite
    ? { type: 'sqlite', path: join(directory, 'pricing.db'), statementTimeoutMs: 0 }
    : { type: 'postgres', url: context.databaseUrl, schema: `bench_${id}`, statementTimeoutMs: 0 };
  const env: Record<string, string> = {
    ...(database.type === 'postgres'
      ? { DATABASE_URL: database.url, DATABASE_SCHEMA: database.schema }
      : { DATABASE_URL: `sqlite:${database.path}` }),
    // An empty REDIS_URL is unset: one exported in the shell must not name a second Redis.
    ...(context.redisClusterNodes
      ? { REDIS_CLUSTER_NODES: context.redisClusterNodes, REDIS_URL: '' }
      : { REDIS_URL: context.redisUrl }),
    ...(context.databaseReadUrls ? { DATABASE_READ_URLS: context.databaseReadUrls } : {}),
    QUEUE_PREFIX: prefix,
    ADMIN_TOKEN: `bench-admin-token-${randomBytes(8).toString('hex')}`,
    PLANS_FILE: plansFile,
    DEMO_DATA: 'false',
    LOG_LEVEL: 'warn',
    // One client machine drives every request: the per-key burst limit would be the figure.
    BURST_LIMIT_PER_SECOND: '100000',
    AUTH_FAILURES_PER_MINUTE: '100000',
  };
  const cli = async (...args: string[]) => {
    const cliArgs = [...CLI_NODE_FLAGS, 'dist/apps/worker/src/cli.js', ...args];
    const { stdout } = await run(process.execPath, cliArgs, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  };
  await cli('migrate');
  const redisConfig = loadConfig(env).redis;
  return {
    env,
    database,
    cli,
    async createKey(scopes = 'read') {
      const output = await cli(
        'keys:create',
        '--name',
        'bench',
        '--plan',
        'bench',
        '--scopes',
        scopes,
      );
      return (JSON.parse(output) as { key: string }).key;
    },
    async cleanup() {
      if (database.type === 'postgres') await dropSchema(database);
      rmSync(directory, { recursive: true, force: true });
      // The run's own Redis or Redis Cluster, as its processes' configuration names it.
      const redis = createRedisConnection(redisConfig, 'bench-cleanup');
      try {
        for (const pattern of [`${prefix}*`, `bench-${id}:*`]) {
          await deleteKeysMatching(redis, pattern);
        }
      } finally {
        redis.disconnect();
      }
    },
  };
}

async function dropSchema({ url, schema }: { url: string; schema: string }): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

/**
 * A worker and an API process on `environment`, added to `processes` (the caller stops them),
 * and the headers of a read-and-ingest key created while they start.
 */
export async function startWorkerAndApi(
  environment: ServiceEnvironment,
  processes: ServiceProcess[],
): Promise<{ worker: ServiceProcess; api: ServiceProcess; headers: Record<string, string> }> {
  const keyCreated = environment.createKey('read,ingest');
  // Its failure is thrown where it is awaited; until then it must not count as unhandled.
  keyCreated.catch(() => undefined);
  const [worker, api] = await startServices(['worker', 'api'], environment.env);
  processes.push(worker!, api!);
  return { worker: worker!, api: api!, headers: { authorization: `Bearer ${await keyCreated}` } };
}
