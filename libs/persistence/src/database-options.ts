import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DatabaseConfig } from '#app/config';
import type { DataSourceOptions } from 'typeorm';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions.js';
import { ApiKeyEntity } from './entities/api-key.entity.js';
import { CompanyEntity } from './entities/company.entity.js';
import { ExchangeRateEntity } from './entities/exchange-rate.entity.js';
import { PricingChangeEntity } from './entities/pricing-change.entity.js';
import { PricingPageEntity } from './entities/pricing-page.entity.js';
import { PricingSnapshotEntity } from './entities/pricing-snapshot.entity.js';
import { PlanSearchChargeEntity } from './entities/plan-search-charge.entity.js';
import { PlanSearchCompanyEntity } from './entities/plan-search-company.entity.js';
import { PlanSearchDiscountEntity } from './entities/plan-search-discount.entity.js';
import { PlanSearchPageEntity } from './entities/plan-search-page.entity.js';
import { PlanSearchPlanEntity } from './entities/plan-search-plan.entity.js';
import { PriceIndexCompanyEntity } from './entities/price-index-company.entity.js';
import { PriceIndexEntryEntity } from './entities/price-index-entry.entity.js';
import { PriceIndexVersionEntity } from './entities/price-index-version.entity.js';
import { ScrapeFileEntity } from './entities/scrape-file.entity.js';
import { WebhookDispatchEntity } from './entities/webhook-dispatch.entity.js';
import { WebhookEntity } from './entities/webhook.entity.js';
import { InitialSchema1763700000000 } from './migrations/1763700000000-initial-schema.js';
import { CompanyListIndexes1763800000000 } from './migrations/1763800000000-company-list-indexes.js';
import { CompanySearchTrigram1763900000000 } from './migrations/1763900000000-company-search-trigram.js';
import { DropUnusedScrapeIndex1764000000000 } from './migrations/1764000000000-drop-unused-scrape-index.js';
import { PricingChanges1764100000000 } from './migrations/1764100000000-pricing-changes.js';
import { Webhooks1764200000000 } from './migrations/1764200000000-webhooks.js';
import { ProjectionFailures1764400000000 } from './migrations/1764400000000-projection-failures.js';
import { CompanySearchByCategory1764500000000 } from './migrations/1764500000000-company-search-by-category.js';
import { ExchangeRates1764600000000 } from './migrations/1764600000000-exchange-rates.js';
import { PlanSearch1764700000000 } from './migrations/1764700000000-plan-search.js';
import { PricingSnapshotPositions1764800000000 } from './migrations/1764800000000-pricing-snapshot-positions.js';
import { ChangeSignificance1764900000000 } from './migrations/1764900000000-change-significance.js';
import { PriceIndex1765000000000 } from './migrations/1765000000000-price-index.js';

const ENTITIES = [
  CompanyEntity,
  PricingPageEntity,
  ScrapeFileEntity,
  PricingSnapshotEntity,
  PricingChangeEntity,
  ApiKeyEntity,
  WebhookEntity,
  WebhookDispatchEntity,
  ExchangeRateEntity,
  PlanSearchCompanyEntity,
  PlanSearchPageEntity,
  PlanSearchPlanEntity,
  PlanSearchChargeEntity,
  PlanSearchDiscountEntity,
  PriceIndexCompanyEntity,
  PriceIndexVersionEntity,
  PriceIndexEntryEntity,
];
const MIGRATIONS = [
  InitialSchema1763700000000,
  CompanyListIndexes1763800000000,
  CompanySearchTrigram1763900000000,
  DropUnusedScrapeIndex1764000000000,
  PricingChanges1764100000000,
  Webhooks1764200000000,
  ProjectionFailures1764400000000,
  CompanySearchByCategory1764500000000,
  ExchangeRates1764600000000,
  PlanSearch1764700000000,
  PricingSnapshotPositions1764800000000,
  ChangeSignificance1764900000000,
  PriceIndex1765000000000,
];

/** The part of a better-sqlite3 connection the options below use. */
interface SqliteConnection {
  pragma(source: string): unknown;
  function(
    name: string,
    options: { deterministic: boolean },
    implementation: (value: unknown) => unknown,
  ): unknown;
}

const COMMON_OPTIONS = {
  entities: ENTITIES,
  migrations: MIGRATIONS,
  synchronize: false,
  logging: false,
};

/**
 * How long a process without a statement timeout (`statementTimeoutMs` 0: the command-line
 * tool) waits for another process's write lock on SQLite.
 */
const SQLITE_UNBOUNDED_LOCK_WAIT_MS = 15_000;

/**
 * TypeORM options for either database. The schema comes only from migrations. A statement waits
 * at most `statementTimeoutMs` for the database (0: as long as it takes): for a lock, a pooled
 * connection, or its own work (PostgreSQL's statement_timeout, which rolls its transaction back);
 * a session that stays idle in a transaction that long is ended.
 */
export function buildDataSourceOptions(database: DatabaseConfig): DataSourceOptions {
  if (database.type === 'sqlite') {
    if (database.path !== ':memory:') mkdirSync(dirname(database.path), { recursive: true });
    return {
      ...COMMON_OPTIONS,
      type: 'better-sqlite3',
      database: database.path,
      enableWAL: true,
      // Other processes (a separate worker, the CLI) may hold the write lock meanwhile.
      timeout: database.statementTimeoutMs || SQLITE_UNBOUNDED_LOCK_WAIT_MS,
      // REPLACE deletes the row it replaces without firing DELETE triggers unless this is on,
      // which would let `INSERT OR REPLACE` rewrite the append-only log.
      prepareDatabase: (db: SqliteConnection) => {
        db.pragma('recursive_triggers = ON');
        // SQLite's LOWER() folds ASCII only; the companies search needs "Ö" to match "ö".
        db.function('lower', { deterministic: true }, (text: unknown) =>
          typeof text === 'string' ? text.toLowerCase() : text,
        );
      },
    };
  }
  return postgresOptions(database.url, database.schema, database.statementTimeoutMs);
}

function postgresOptions(
  url: string,
  schema: string,
  statementTimeoutMs: number,
): PostgresDataSourceOptions {
  // TypeORM qualifies its own queries with `schema`; our raw SQL resolves through search_path.
  const options = `-c search_path=${schema}`;
  const bounded = statementTimeoutMs > 0;
  return {
    ...COMMON_OPTIONS,
    type: 'postgres',
    url,
    schema,
    // A new connection, or a free one of the pool, waited for no longer either.
    ...(bounded && { connectTimeoutMS: statementTimeoutMs }),
    extra: {
      options,
      ...(bounded && {
        statement_timeout: statementTimeoutMs,
        idle_in_transaction_session_timeout: statementTimeoutMs,
      }),
    },
  };
}

/** How long a read replica's connection may take: one out of reach is skipped, not waited for. */
const REPLICA_CONNECT_TIMEOUT_MS = 2_000;

/**
 * TypeORM options for a read replica of the PostgreSQL `primary`: the same schema, no migrations
 * (a replica is read-only: it follows the primary's), and a name its sessions show
 * (pg_stat_activity.application_name).
 */
export function buildReplicaDataSourceOptions(
  primary: Extract<DatabaseConfig, { type: 'postgres' }>,
  url: string,
): DataSourceOptions {
  return {
    ...postgresOptions(url, primary.schema, primary.statementTimeoutMs),
    migrations: [],
    applicationName: 'pricing-read-replica',
    connectTimeoutMS: REPLICA_CONNECT_TIMEOUT_MS,
  };
}
