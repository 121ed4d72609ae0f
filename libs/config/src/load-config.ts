import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import {
  AppConfig,
  type DatabaseConfig,
  type RedisClusterNode,
  type TrustProxy,
} from './app-config.js';
import { ConfigError } from './config.error.js';
import { EnvironmentVariables } from './environment.js';
import { DEFAULT_PLANS, loadPlansFile } from './plans.js';

/**
 * The queues' key prefix unless QUEUE_PREFIX is set. The braces make it a Redis Cluster hash
 * tag, so every key of every queue lands in one slot and BullMQ's multi-key scripts can run on
 * a cluster.
 */
export const DEFAULT_QUEUE_PREFIX = '{pricing}';
/**
 * Records per ingest job and chunk jobs a worker runs at once: the best measured (BENCHMARKS.md,
 * `npm run bench -- --only ingestion`): 500 a chunk ingests a fifth faster than 100 for the same
 * memory, and 4 chunks at once overlap one chunk's commit with the next ones' reads.
 */
const DEFAULT_CHUNK_SIZE = 500;
const DEFAULT_WORKER_CONCURRENCY = 4;
/**
 * Events per projection transaction: a worker that projects behind a fast ingestion reads full
 * batches, and 2,000 pricing events took its memory past 200 MB.
 */
const DEFAULT_PROJECTION_BATCH_SIZE = 1_000;

interface LoadConfigOptions {
  /** The standalone process loads the demo catalogue unless told not to. */
  demoDataByDefault?: boolean;
  /** The standalone process, a newcomer's terminal, logs only warnings unless told otherwise. */
  logLevelByDefault?: AppConfig['logLevel'];
  /** Variables that win over the environment's (the OpenAPI writer's throwaway database). */
  overrides?: Record<string, string>;
}

const databaseUrlOf = (vars: EnvironmentVariables) =>
  vars.DATABASE_URL ?? 'sqlite:./data/pricing.db';

function parseDatabase(vars: EnvironmentVariables): DatabaseConfig {
  const url = databaseUrlOf(vars);
  const statementTimeoutMs = vars.DATABASE_STATEMENT_TIMEOUT_MS ?? 5_000;
  if (url.startsWith('sqlite:')) {
    return { type: 'sqlite', path: url.slice('sqlite:'.length), statementTimeoutMs };
  }
  const database: DatabaseConfig = {
    type: 'postgres',
    url,
    schema: vars.DATABASE_SCHEMA ?? 'public',
    statementTimeoutMs,
  };
  if (!vars.DATABASE_READ_URLS) return database;
  return {
    ...database,
    readReplicas: {
      urls: vars.DATABASE_READ_URLS.split(','),
      maxLagMs: vars.READ_REPLICA_MAX_LAG_MS ?? 5_000,
    },
  };
}

function parseClusterNodes(value: string): RedisClusterNode[] {
  return value.split(',').map((node) => {
    const [host, port] = node.split(':') as [string, string];
    return { host, port: Number(port) };
  });
}

/**
 * What the variables ask together that cannot be: read replicas of an SQLite file, one Redis and
 * a cluster at once, or queues whose keys a cluster would spread over slots (BullMQ's scripts
 * then fail with CROSSSLOT).
 */
function conflicts(vars: EnvironmentVariables, queuePrefix: string): string[] {
  const found: string[] = [];
  if (vars.DATABASE_READ_URLS !== undefined && databaseUrlOf(vars).startsWith('sqlite:')) {
    found.push('DATABASE_READ_URLS: read replicas need a postgres:// DATABASE_URL');
  }
  if (vars.REDIS_CLUSTER_NODES === undefined) return found;
  if (vars.REDIS_URL !== undefined) {
    found.push('REDIS_URL, REDIS_CLUSTER_NODES: set one of them, not both');
  } else if (!/\{[^}]+\}/.test(queuePrefix)) {
    found.push('QUEUE_PREFIX: must hold a hash tag such as {pricing} on a Redis Cluster');
  }
  return found;
}

function parseTrustProxy(value: string | undefined): TrustProxy {
  if (value === undefined || value === 'false') return false;
  return value === 'true' ? true : value;
}

/** Validates the environment and builds the configuration, or throws naming each bad variable. */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  options: LoadConfigOptions = {},
): AppConfig {
  // An empty variable counts as unset, as in most shells' `VAR= command`.
  const raw = Object.fromEntries(
    Object.entries({ ...env, ...options.overrides }).filter(([, value]) => value !== ''),
  );
  const vars = plainToInstance(EnvironmentVariables, raw);
  const queuePrefix = vars.QUEUE_PREFIX ?? DEFAULT_QUEUE_PREFIX;
  const lines = [
    ...validateSync(vars, { skipMissingProperties: false }).map(
      (error) => `${error.property}: ${Object.values(error.constraints ?? {}).join('; ')}`,
    ),
    ...conflicts(vars, queuePrefix),
  ];
  if (lines.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return new AppConfig(
    {
      host: vars.HOST ?? '127.0.0.1',
      port: vars.PORT ?? 3000,
      trustProxy: parseTrustProxy(vars.TRUST_PROXY),
    },
    parseDatabase(vars),
    {
      url: vars.REDIS_URL ?? 'redis://127.0.0.1:6379',
      clusterNodes: vars.REDIS_CLUSTER_NODES ? parseClusterNodes(vars.REDIS_CLUSTER_NODES) : null,
      queuePrefix,
      keyNamespace: queuePrefix.replace(/[{}]/g, ''),
    },
    vars.ADMIN_TOKEN ?? null,
    vars.PLANS_FILE ? loadPlansFile(vars.PLANS_FILE) : DEFAULT_PLANS,
    vars.DEMO_DATA ?? options.demoDataByDefault ?? false,
    {
      scrapers: (vars.SCRAPERS ?? 'scraper_1,scraper_2,scraper_3,scraper_4').split(','),
      chunkSize: vars.INGEST_CHUNK_SIZE ?? DEFAULT_CHUNK_SIZE,
      concurrency: vars.WORKER_CONCURRENCY ?? DEFAULT_WORKER_CONCURRENCY,
      replicaWaitMs: vars.INGEST_REPLICA_WAIT_MS ?? 2_000,
      attempts: vars.INGEST_ATTEMPTS ?? 10,
      backoffMs: vars.INGEST_BACKOFF_MS ?? 1_000,
      lockMs: vars.INGEST_LOCK_MS ?? 30_000,
      retentionSeconds: vars.INGEST_RETENTION_SECONDS ?? 7 * 24 * 3600,
    },
    {
      pollMs: vars.PROJECTION_POLL_MS ?? 250,
      batchSize: vars.PROJECTION_BATCH_SIZE ?? DEFAULT_PROJECTION_BATCH_SIZE,
    },
    vars.SHUTDOWN_GRACE_MS ?? 10_000,
    (vars.LOG_LEVEL as AppConfig['logLevel'] | undefined) ?? options.logLevelByDefault ?? 'log',
    vars.UPGRADE_URL ?? 'https://pricing-intelligence.example.com/upgrade',
    {
      burstPerSecond: vars.BURST_LIMIT_PER_SECOND ?? 20,
      authFailuresPerMinute: vars.AUTH_FAILURES_PER_MINUTE ?? 30,
      keyCacheMs: (vars.API_KEY_CACHE_SECONDS ?? 30) * 1000,
    },
    {
      workerPort: vars.WORKER_METRICS_PORT ?? 3001,
      readyMaxProjectionLag: vars.READY_MAX_PROJECTION_LAG ?? 10_000,
    },
    {
      maxBytes: (vars.READ_CACHE_MB ?? 32) * 1024 * 1024,
      ttlMs: (vars.READ_CACHE_SECONDS ?? 60) * 1000,
    },
    {
      allowPrivateUrls: vars.WEBHOOK_ALLOW_PRIVATE_URLS ?? false,
      attempts: vars.WEBHOOK_ATTEMPTS ?? 10,
      backoffMs: vars.WEBHOOK_BACKOFF_MS ?? 30_000,
      timeoutMs: vars.WEBHOOK_TIMEOUT_MS ?? 10_000,
      concurrency: vars.WEBHOOK_CONCURRENCY ?? 16,
    },
    { imageSources: (vars.EXPLORER_IMAGE_SOURCES ?? 'https:').split(',') },
  );
}
