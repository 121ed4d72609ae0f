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
import { RECORD_BOUNDS } from '#app/domain';

/** A scraper name a record can carry: what a scrape's stream id leaves for it. */
const SCRAPER_MAX_LENGTH = RECORD_BOUNDS.scrape.scraper.maxLength;
const SCRAPER_NAME = `[a-z0-9_]{1,${SCRAPER_MAX_LENGTH}}`;

/** A TCP port from 1 to 65535. */
const PORT =
  '([1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])';
/** A host name or IPv4 address and a port. */
const HOST_PORT = `[A-Za-z0-9.-]+:${PORT}`;
/** A Content-Security-Policy source of https images: any https host, or one (or its subdomains). */
const IMAGE_SOURCE = `(https:|https://(\\*\\.)?[a-z0-9.-]+(:${PORT})?)`;

const toBoolean = ({ value }: { value: unknown }) =>
  value === 'true' ? true : value === 'false' ? false : value;
const toInteger = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;

/**
 * The environment variables the service reads, each validated at start. Optional ones have
 * their defaults in load-config.ts. Only this library reads process.env.
 */
export class EnvironmentVariables {
  @IsOptional()
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT?: number;

  @IsOptional()
  @IsString()
  HOST?: string;

  @IsOptional()
  @Matches(/^(sqlite:.+|postgres(ql)?:\/\/.+)$/, {
    message: 'DATABASE_URL must be sqlite:<path> or postgres://...',
  })
  DATABASE_URL?: string;

  @IsOptional()
  @Matches(/^[a-z_][a-z0-9_]{0,62}$/, {
    message: 'DATABASE_SCHEMA must be a lower-case PostgreSQL identifier',
  })
  DATABASE_SCHEMA?: string;

  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/[^,]+(,postgres(ql)?:\/\/[^,]+)*$/, {
    message: 'DATABASE_READ_URLS must be a comma-separated list of postgres://... URLs',
  })
  DATABASE_READ_URLS?: string;

  @IsOptional()
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  READ_REPLICA_MAX_LAG_MS?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt()
  @Min(100)
  @Max(600_000)
  DATABASE_STATEMENT_TIMEOUT_MS?: number;

  @IsOptional()
  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be redis://...' })
  REDIS_URL?: string;

  /** Instead of REDIS_URL: some nodes of a Redis Cluster, from which the client finds the rest. */
  @IsOptional()
  @Matches(new RegExp(`^${HOST_PORT}(,${HOST_PORT})*$`), {
    message: 'REDIS_CLUSTER_NODES must be a comma-separated list of host:port (port 1 to 65535)',
  })
  REDIS_CLUSTER_NODES?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  QUEUE_PREFIX?: string;

  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'ADMIN_TOKEN must be at least 16 characters' })
  ADMIN_TOKEN?: string;

  @IsOptional()
  @IsString()
  PLANS_FILE?: string;

  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  DEMO_DATA?: boolean;

  @IsOptional()
  @Matches(new RegExp(`^${SCRAPER_NAME}(,${SCRAPER_NAME})*$`), {
    message:
      'SCRAPERS must be a comma-separated list of lower-case identifiers of at most ' +
      `${SCRAPER_MAX_LENGTH} characters`,
  })
  SCRAPERS?: string;

  @IsOptional()
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(1000)
  WORKER_CONCURRENCY?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(1000)
  INGEST_CHUNK_SIZE?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt()
  @Min(100)
  @Max(60_000)
  INGEST_REPLICA_WAIT_MS?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(100)
  INGEST_ATTEMPTS?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  INGEST_BACKOFF_MS?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt()
  @Min(1000)
  INGEST_LOCK_MS?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt()
  @Min(60)
  INGEST_RETENTION_SECONDS?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt()
  @Min(10)
  PROJECTION_POLL_MS?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(10000)
  PROJECTION_BATCH_SIZE?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  SHUTDOWN_GRACE_MS?: number;

  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'UPGRADE_URL must be an http(s) URL' })
  UPGRADE_URL?: string;

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'log', 'debug', 'verbose'])
  LOG_LEVEL?: string;

  @IsOptional()
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  // The bucket counts in whole microseconds: a step of 10 µs at most keeps it exact.
  @Max(100_000)
  BURST_LIMIT_PER_SECOND?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  AUTH_FAILURES_PER_MINUTE?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(3600)
  API_KEY_CACHE_SECONDS?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(4096)
  READ_CACHE_MB?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(86400)
  READ_CACHE_SECONDS?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(65535)
  WORKER_METRICS_PORT?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  READY_MAX_PROJECTION_LAG?: number;

  @IsOptional()
  @Matches(/^(true|false|[0-9a-fA-F.:/]+(,[0-9a-fA-F.:/]+)*)$/, {
    message: 'TRUST_PROXY must be true, false, or comma-separated proxy addresses or CIDRs',
  })
  TRUST_PROXY?: string;

  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  WEBHOOK_ALLOW_PRIVATE_URLS?: boolean;

  @IsOptional()
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(100)
  WEBHOOK_ATTEMPTS?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  WEBHOOK_BACKOFF_MS?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt()
  @Min(100)
  @Max(120000)
  WEBHOOK_TIMEOUT_MS?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(1000)
  WEBHOOK_CONCURRENCY?: number;

  /** Content-Security-Policy img-src sources: https origins, `https://*.host`, or `https:`. */
  @IsOptional()
  @Matches(new RegExp(`^${IMAGE_SOURCE}(,${IMAGE_SOURCE})*$`), {
    message:
      'EXPLORER_IMAGE_SOURCES must be a comma-separated list of https origins ' +
      '(https://files.example.com, https://*.example.com) or https: for any https host',
  })
  EXPLORER_IMAGE_SOURCES?: string;
}
