import { type EnvironmentVariables, type LogLevel } from './environment.js';
import { DEFAULT_PLANS, loadPlansFile } from './plans.js';

/** A node of a Redis Cluster, as REDIS_CLUSTER_NODES names it. */
export interface RedisClusterNode {
  host: string;
  port: number;
}

/**
 * `statementTimeoutMs` (DATABASE_STATEMENT_TIMEOUT_MS) bounds how long a statement of a process
 * that serves requests waits for the database: a lock, a connection from the pool, a slow plan.
 */
export type DatabaseConfig =
  | { type: 'sqlite'; path: string; statementTimeoutMs: number }
  | {
      type: 'postgres';
      url: string;
      schema: string;
      statementTimeoutMs: number;
      readReplicas?: ReadReplicasConfig;
    };

/**
 * PostgreSQL read replicas (DATABASE_READ_URLS): the read API's queries go to one of them when it
 * is reachable, lags at most `maxLagMs` and holds every read model as it stands on the primary.
 */
interface ReadReplicasConfig {
  urls: string[];
  maxLagMs: number;
}

/** Fastify's trustProxy: whom to believe about the client address (X-Forwarded-For). */
export type TrustProxy = boolean | string;

export interface PlanDefinition {
  name: string;
  requestsPerHour: number;
  creditsPerMonth: number;
  features: string[];
}

/** The one validated configuration object every service receives by injection. */
export class AppConfig {
  readonly http: { host: string; port: number; trustProxy: TrustProxy };
  readonly database: DatabaseConfig;
  /**
   * `keyNamespace` starts every other key (counters, channels): the queue prefix without its
   * braces, so each key can carry its own hash tag (an API key's id) on Redis Cluster.
   * `clusterNodes`, when set, makes every connection a cluster client, and `url` goes unused.
   */
  readonly redis: {
    url: string;
    clusterNodes: RedisClusterNode[] | null;
    queuePrefix: string;
    keyNamespace: string;
  };
  readonly adminToken: string | null;
  /** Cheapest first. */
  readonly plans: PlanDefinition[];
  readonly demoData: boolean;
  readonly ingest: {
    scrapers: string[];
    /** Records per ingest job: the API splits a batch into chunks of this many. */
    chunkSize: number;
    /** Chunk jobs a worker process decides at once. */
    concurrency: number;
    /** How long a 202 waits for a replica of the queue's master to hold the batch's jobs. */
    replicaWaitMs: number;
    attempts: number;
    backoffMs: number;
    lockMs: number;
    retentionSeconds: number;
  };
  readonly projections: { pollMs: number; batchSize: number };
  readonly shutdownGraceMs: number;
  readonly logLevel: LogLevel;
  /** Where a 403 for a missing plan feature sends the customer. */
  readonly upgradeUrl: string;
  readonly limits: {
    /** Uncharged answers a second per key (a bucket of this many, refilled as fast). */
    burstPerSecond: number;
    /** Failed authentications a minute per client address. */
    authFailuresPerMinute: number;
    /** How long a process trusts a key it has looked up; revocations also arrive by pub/sub. */
    keyCacheMs: number;
  };
  readonly observability: {
    /** Where a worker process serves /metrics and /health/* (the API serves them on its own port). */
    workerPort: number;
    /** /health/ready fails while a projector is more events behind than this. */
    readyMaxProjectionLag: number;
  };
  /** The API's in-process cache of answers that cannot change (version-addressed reads). */
  readonly readCache: { maxBytes: number; ttlMs: number };
  readonly webhooks: {
    /** Lifts the https-only and public-addresses-only rules (development and tests). */
    allowPrivateUrls: boolean;
    attempts: number;
    backoffMs: number;
    /** How long one delivery waits for the receiver's answer. */
    timeoutMs: number;
    /** Deliveries one worker process sends at once. */
    concurrency: number;
  };
  readonly explorer: {
    /**
     * Where the explorer's page may load the scrape files' screenshots from: Content-Security-
     * Policy sources of its img-src (an https origin, `https://*.host`, or `https:` for any).
     */
    imageSources: string[];
  };

  /** From the validated schema (loadConfig validates it); reads PLANS_FILE when it is set. */
  constructor(env: EnvironmentVariables) {
    this.http = { host: env.HOST, port: env.PORT, trustProxy: trustProxyOf(env.TRUST_PROXY) };
    this.database = databaseOf(env);
    this.redis = {
      url: env.REDIS_URL,
      clusterNodes: env.REDIS_CLUSTER_NODES ? clusterNodesOf(env.REDIS_CLUSTER_NODES) : null,
      queuePrefix: env.QUEUE_PREFIX,
      keyNamespace: env.QUEUE_PREFIX.replace(/[{}]/g, ''),
    };
    this.adminToken = env.ADMIN_TOKEN ?? null;
    this.plans = env.PLANS_FILE ? loadPlansFile(env.PLANS_FILE) : DEFAULT_PLANS;
    this.demoData = env.DEMO_DATA;
    this.ingest = {
      scrapers: env.SCRAPERS.split(','),
      chunkSize: env.INGEST_CHUNK_SIZE,
      concurrency: env.WORKER_CONCURRENCY,
      replicaWaitMs: env.INGEST_REPLICA_WAIT_MS,
      attempts: env.INGEST_ATTEMPTS,
      backoffMs: env.INGEST_BACKOFF_MS,
      lockMs: env.INGEST_LOCK_MS,
      retentionSeconds: env.INGEST_RETENTION_SECONDS,
    };
    this.projections = { pollMs: env.PROJECTION_POLL_MS, batchSize: env.PROJECTION_BATCH_SIZE };
    this.shutdownGraceMs = env.SHUTDOWN_GRACE_MS;
    this.logLevel = env.LOG_LEVEL;
    this.upgradeUrl = env.UPGRADE_URL;
    this.limits = {
      burstPerSecond: env.BURST_LIMIT_PER_SECOND,
      authFailuresPerMinute: env.AUTH_FAILURES_PER_MINUTE,
      keyCacheMs: env.API_KEY_CACHE_SECONDS * 1000,
    };
    this.observability = {
      workerPort: env.WORKER_METRICS_PORT,
      readyMaxProjectionLag: env.READY_MAX_PROJECTION_LAG,
    };
    this.readCache = {
      maxBytes: env.READ_CACHE_MB * 1024 * 1024,
      ttlMs: env.READ_CACHE_SECONDS * 1000,
    };
    this.webhooks = {
      allowPrivateUrls: env.WEBHOOK_ALLOW_PRIVATE_URLS,
      attempts: env.WEBHOOK_ATTEMPTS,
      backoffMs: env.WEBHOOK_BACKOFF_MS,
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
      concurrency: env.WEBHOOK_CONCURRENCY,
    };
    this.explorer = { imageSources: env.EXPLORER_IMAGE_SOURCES.split(',') };
  }

  /** The plan of that name; undefined for a plan no longer configured. */
  planNamed(name: string): PlanDefinition | undefined {
    return this.plans.find((plan) => plan.name === name);
  }
}

function databaseOf(env: EnvironmentVariables): DatabaseConfig {
  const url = env.DATABASE_URL;
  const statementTimeoutMs = env.DATABASE_STATEMENT_TIMEOUT_MS;
  if (url.startsWith('sqlite:')) {
    return { type: 'sqlite', path: url.slice('sqlite:'.length), statementTimeoutMs };
  }
  const database: DatabaseConfig = {
    type: 'postgres',
    url,
    schema: env.DATABASE_SCHEMA,
    statementTimeoutMs,
  };
  if (!env.DATABASE_READ_URLS) return database;
  return {
    ...database,
    readReplicas: {
      urls: env.DATABASE_READ_URLS.split(','),
      maxLagMs: env.READ_REPLICA_MAX_LAG_MS,
    },
  };
}

function clusterNodesOf(value: string): RedisClusterNode[] {
  return value.split(',').map((node) => {
    const [host, port] = node.split(':') as [string, string];
    return { host, port: Number(port) };
  });
}

function trustProxyOf(value: string): TrustProxy {
  if (value === 'false') return false;
  return value === 'true' ? true : value;
}
