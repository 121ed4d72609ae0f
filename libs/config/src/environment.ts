// class-transformer reads decorator metadata when this module loads, whoever imports it.
import 'reflect-metadata';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
} from 'class-validator';
import { maxLengthOf, ScrapeRecord } from '#app/domain';

/** A scraper name a record can carry: what a scrape's stream id leaves for it. */
const SCRAPER_MAX_LENGTH = maxLengthOf(ScrapeRecord, 'scraper');
const SCRAPER_NAME = `[a-z0-9_]{1,${SCRAPER_MAX_LENGTH}}`;

/** A TCP port from 1 to 65535. */
const PORT =
  '([1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])';
/** A host name or IPv4 address and a port. */
const HOST_PORT = `[A-Za-z0-9.-]+:${PORT}`;
/** A Content-Security-Policy source of https images: any https host, or one (or its subdomains). */
const IMAGE_SOURCE = `(https:|https://(\\*\\.)?[a-z0-9.-]+(:${PORT})?)`;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * The queues' key prefix unless QUEUE_PREFIX is set. The braces make it a Redis Cluster hash
 * tag, so every key of every queue lands in one slot and BullMQ's multi-key scripts can run on
 * a cluster.
 */
export const DEFAULT_QUEUE_PREFIX = '{pricing}';

const toBoolean = ({ value }: { value: unknown }) =>
  value === 'true' ? true : value === 'false' ? false : value;
const toInteger = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;

/**
 * An integer variable from `min` (to `max`): its text read as a number, then checked. The
 * checks register in the order stacked decorators did, so their reasons read as they always have.
 */
function Integer(min: number, max?: number): PropertyDecorator {
  const checks = [
    ...(max === undefined ? [] : [Max(max)]),
    Min(min),
    IsInt(),
    Transform(toInteger),
  ];
  return (target, property) => {
    for (const check of checks) check(target, property);
  };
}

/** A variable's row of the operators' guide's configuration table (configuration-table.spec.ts holds them equal). */
interface VariableDoc {
  meaning: string;
  /** What the table says of the default when the property's initial value cannot say it. */
  shownDefault?: string;
}

/** Every variable of the schema, in its order, with its documentation. */
export const VARIABLE_DOCS = new Map<string, VariableDoc>();

/**
 * Declares a variable of the schema, documented: it may be unset, and then takes the property's
 * initial value (its default) or, without one, stays undefined.
 */
function Variable(meaning: string, shownDefault?: string): PropertyDecorator {
  const optional = IsOptional();
  return (target, property) => {
    VARIABLE_DOCS.set(String(property), { meaning, shownDefault });
    optional(target, property);
  };
}

/**
 * The configuration schema: the environment variables the service reads, each with its check,
 * its default and its documentation, validated at start (loadConfig). Only this library reads
 * process.env.
 */
export class EnvironmentVariables {
  @Variable("port of the API's HTTP address")
  @Integer(0, 65535)
  PORT = 3000;

  @Variable("host of the API's HTTP address")
  @IsString()
  HOST = '127.0.0.1';

  @Variable('`sqlite:<path>` or `postgres://user:pass@host:5432/db`')
  @Matches(/^(sqlite:.+|postgres(ql)?:\/\/.+)$/, {
    message: 'DATABASE_URL must be sqlite:<path> or postgres://...',
  })
  DATABASE_URL = 'sqlite:./data/pricing.db';

  @Variable('PostgreSQL schema (created when missing; tests use one per file)')
  @Matches(/^[a-z_][a-z0-9_]{0,62}$/, {
    message: 'DATABASE_SCHEMA must be a lower-case PostgreSQL identifier',
  })
  DATABASE_SCHEMA = 'public';

  @Variable(
    'comma list of `postgres://` streaming replicas for the read API ([Read replicas](#postgresql-read-replicas))',
  )
  @Matches(/^postgres(ql)?:\/\/[^,]+(,postgres(ql)?:\/\/[^,]+)*$/, {
    message: 'DATABASE_READ_URLS must be a comma-separated list of postgres://... URLs',
  })
  DATABASE_READ_URLS?: string;

  @Variable('a replica lagging more than this is skipped until it catches up')
  @Integer(0)
  READ_REPLICA_MAX_LAG_MS = 5_000;

  @Variable(
    "longest an API process's statement waits for the database (a lock, a pooled connection, a slow plan): past it the request is 503",
  )
  @Integer(100, 600_000)
  DATABASE_STATEMENT_TIMEOUT_MS = 5_000;

  @Variable('Redis for the queue, the counters and key revocations')
  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be redis://...' })
  REDIS_URL = 'redis://127.0.0.1:6379';

  @Variable(
    '`host:port,host:port,...` of a Redis Cluster, instead of `REDIS_URL` ([Redis Cluster](#redis-cluster))',
  )
  @Matches(new RegExp(`^${HOST_PORT}(,${HOST_PORT})*$`), {
    message: 'REDIS_CLUSTER_NODES must be a comma-separated list of host:port (port 1 to 65535)',
  })
  REDIS_CLUSTER_NODES?: string;

  @Variable(
    'BullMQ key prefix; keep the braces (Redis Cluster hash tag); without them it names the counters (`pricing:meter:…`)',
  )
  @IsString()
  @MinLength(1)
  QUEUE_PREFIX = DEFAULT_QUEUE_PREFIX;

  @Variable(
    "bearer token of `/v1/admin/*`, 16 characters or more; also keys the API's mark on checked ingest jobs (give the worker the same)",
    'unset (admin API off)',
  )
  @IsString()
  @MinLength(16, { message: 'ADMIN_TOKEN must be at least 16 characters' })
  ADMIN_TOKEN?: string;

  @Variable('JSON file of plans, cheapest first', 'built-in free / pro / enterprise')
  @IsString()
  PLANS_FILE?: string;

  // The standalone process turns it on unless told not to (loadConfig's demoDataByDefault).
  @Variable('load the demo catalogue into an empty database', '`true` in standalone, else `false`')
  @Transform(toBoolean)
  @IsBoolean()
  DEMO_DATA = false;

  @Variable(
    `allowed \`scraper\` values, each at most ${SCRAPER_MAX_LENGTH} characters (what a scrape's stream id leaves for it); a longer one stops start-up`,
  )
  @Matches(new RegExp(`^${SCRAPER_NAME}(,${SCRAPER_NAME})*$`), {
    message:
      'SCRAPERS must be a comma-separated list of lower-case identifiers of at most ' +
      `${SCRAPER_MAX_LENGTH} characters`,
  })
  SCRAPERS = 'scraper_1,scraper_2,scraper_3,scraper_4';

  /*
   * Records per ingest job and chunk jobs a worker runs at once: the best measured (BENCHMARKS.md,
   * `npm run bench -- --only ingestion`): 500 a chunk ingests a fifth faster than 100 for the same
   * memory, and 4 chunks at once overlap one chunk's commit with the next ones' reads.
   */
  @Variable('chunk jobs a worker process decides at once (each in a transaction of its own)')
  @Integer(1, 1000)
  WORKER_CONCURRENCY = 4;

  @Variable('records per ingest job: the API cuts a batch into chunks of this many (1 to 1,000)')
  @Integer(1, 1000)
  INGEST_CHUNK_SIZE = 500;

  @Variable(
    "how long a 202 waits for a replica of the queue's Redis master to hold the batch's jobs (`WAIT`); past it, 503",
  )
  @Integer(100, 60_000)
  INGEST_REPLICA_WAIT_MS = 2_000;

  @Variable('tries per ingest job')
  @Integer(1, 100)
  INGEST_ATTEMPTS = 10;

  @Variable("first backoff between an ingest job's tries (doubles each time)")
  @Integer(1)
  INGEST_BACKOFF_MS = 1_000;

  @Variable("after this long a dead worker's job goes to another worker")
  @Integer(1000)
  INGEST_LOCK_MS = 30_000;

  @Variable('how long completed jobs and batch statuses are kept')
  @Integer(60)
  INGEST_RETENTION_SECONDS = 7 * 24 * 3600;

  @Variable('how often a projector polls for new events')
  @Integer(10)
  PROJECTION_POLL_MS = 250;

  // A worker that projects behind a fast ingestion reads full batches, and 2,000 pricing events
  // took its memory past 200 MB.
  @Variable('events per projection transaction (read once, applied to every read model)')
  @Integer(1, 10000)
  PROJECTION_BATCH_SIZE = 1_000;

  @Variable('how long SIGTERM waits for jobs in flight')
  @Integer(0)
  SHUTDOWN_GRACE_MS = 10_000;

  @Variable('where a 403 for a missing plan feature points')
  @Matches(/^https?:\/\/\S+$/, { message: 'UPGRADE_URL must be an http(s) URL' })
  UPGRADE_URL = 'https://pricing-intelligence.example.com/upgrade';

  // The standalone process logs only warnings unless told otherwise (logLevelByDefault).
  @Variable(LOG_LEVELS.map((level) => `\`${level}\``).join(', '), '`log` (`warn` for `npm start`)')
  @IsIn(LOG_LEVELS)
  LOG_LEVEL: LogLevel = 'log';

  @Variable('uncharged answers a second per key (a charged 2xx takes none)')
  // The bucket counts in whole microseconds: a step of 10 µs at most keeps it exact.
  @Integer(1, 100_000)
  BURST_LIMIT_PER_SECOND = 20;

  @Variable('failed authentications a minute per client address')
  @Integer(1, 1_000_000)
  AUTH_FAILURES_PER_MINUTE = 30;

  @Variable('how long an API process trusts a key it looked up (0: no cache)')
  @Integer(0, 3600)
  API_KEY_CACHE_SECONDS = 30;

  @Variable("what the read lane's kept answers may hold, keys included (0: off)")
  @Integer(0, 4096)
  READ_CACHE_MB = 32;

  @Variable('how long the read lane keeps an answer at most')
  @Integer(1, 86400)
  READ_CACHE_SECONDS = 60;

  @Variable(
    'where a worker serves `/metrics` and `/health/*` (two workers on one host need two ports)',
  )
  @Integer(0, 65535)
  WORKER_METRICS_PORT = 3001;

  @Variable('`/health/ready` fails while a projector is more events behind')
  @Integer(0)
  READY_MAX_PROJECTION_LAG = 10_000;

  @Variable(
    "`true` or proxy addresses/CIDRs whose `X-Forwarded-For`/`-Proto`/`-Host` are believed: client address, the dashboard's https",
  )
  @Matches(/^(true|false|[0-9a-fA-F.:/]+(,[0-9a-fA-F.:/]+)*)$/, {
    message: 'TRUST_PROXY must be true, false, or comma-separated proxy addresses or CIDRs',
  })
  TRUST_PROXY = 'false';

  @Variable(
    '`true` accepts http and private addresses as webhook URLs (development and tests only)',
  )
  @Transform(toBoolean)
  @IsBoolean()
  WEBHOOK_ALLOW_PRIVATE_URLS = false;

  @Variable('tries per webhook delivery')
  @Integer(1, 100)
  WEBHOOK_ATTEMPTS = 10;

  @Variable("first backoff between a delivery's tries (doubles each time)")
  @Integer(1)
  WEBHOOK_BACKOFF_MS = 30_000;

  @Variable('how long a delivery waits for the receiver')
  @Integer(100, 120000)
  WEBHOOK_TIMEOUT_MS = 10_000;

  @Variable('deliveries a worker process sends at once')
  @Integer(1, 1000)
  WEBHOOK_CONCURRENCY = 16;

  @Variable(
    'where the explorer may load screenshots from: comma list of `https://host` or `https://*.host` (`https:`: any https host)',
  )
  @Matches(new RegExp(`^${IMAGE_SOURCE}(,${IMAGE_SOURCE})*$`), {
    message:
      'EXPLORER_IMAGE_SOURCES must be a comma-separated list of https origins ' +
      '(https://files.example.com, https://*.example.com) or https: for any https host',
  })
  EXPLORER_IMAGE_SOURCES = 'https:';
}
