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
  constructor(
    readonly http: { host: string; port: number; trustProxy: TrustProxy },
    readonly database: DatabaseConfig,
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
    },
    readonly adminToken: string | null,
    /** Cheapest first. */
    readonly plans: PlanDefinition[],
    readonly demoData: boolean,
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
    },
    readonly projections: { pollMs: number; batchSize: number },
    readonly shutdownGraceMs: number,
    readonly logLevel: 'fatal' | 'error' | 'warn' | 'log' | 'debug' | 'verbose',
    /** Where a 403 for a missing plan feature sends the customer. */
    readonly upgradeUrl: string,
    readonly limits: {
      /** Requests a second per key, charged or not (a bucket of this many, refilled as fast). */
      burstPerSecond: number;
      /** Failed authentications a minute per client address. */
      authFailuresPerMinute: number;
      /** How long a process trusts a key it has looked up; revocations also arrive by pub/sub. */
      keyCacheMs: number;
    },
    readonly observability: {
      /** Where a worker process serves /metrics and /health/* (the API serves them on its own port). */
      workerPort: number;
      /** /health/ready fails while a projector is more events behind than this. */
      readyMaxProjectionLag: number;
    },
    /** The API's in-process cache of answers that cannot change (version-addressed reads). */
    readonly readCache: { maxBytes: number; ttlMs: number },
    readonly webhooks: {
      /** Lifts the https-only and public-addresses-only rules (development and tests). */
      allowPrivateUrls: boolean;
      attempts: number;
      backoffMs: number;
      /** How long one delivery waits for the receiver's answer. */
      timeoutMs: number;
      /** Deliveries one worker process sends at once. */
      concurrency: number;
    },
    readonly explorer: {
      /**
       * Where the explorer's page may load the scrape files' screenshots from: Content-Security-
       * Policy sources of its img-src (an https origin, `https://*.host`, or `https:` for any).
       */
      imageSources: string[];
    },
  ) {}

  /** The plan of that name; undefined for a plan no longer configured. */
  planNamed(name: string): PlanDefinition | undefined {
    return this.plans.find((plan) => plan.name === name);
  }
}
