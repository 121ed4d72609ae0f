import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '#app/config';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions, buildReplicaDataSourceOptions } from './database-options.js';
import { EventStore } from './events/event-store.js';
import { ApiKeyRepository } from './keys/api-key.repository.js';
import { MigrationStatus, runMigrations } from './migrate.js';
import { CheckpointStampBoard } from './projections/checkpoint-stamp-board.js';
import { CheckpointStore } from './projections/checkpoint-store.js';
import { ProjectionLagReader } from './projections/projection-lag.reader.js';
import { CompanyReader } from './read-models/company.reader.js';
import { ExchangeRateReader } from './read-models/exchange-rate.reader.js';
import { PageReader } from './read-models/page.reader.js';
import { PlanSearchReader } from './read-models/plan-search.reader.js';
import { PriceIndexReader } from './read-models/price-index.reader.js';
import { PricingChangeReader } from './read-models/pricing-change.reader.js';
import { PricingSnapshotReader } from './read-models/pricing-snapshot.reader.js';
import { ReadModelTables } from './read-models/read-model-tables.js';
import { ScrapeFileReader } from './read-models/scrape-file.reader.js';
import { ReadDatabase } from './replicas/read-database.js';
import { ReadReplica } from './replicas/read-replica.js';
import { ReplicatedReadDatabase } from './replicas/replicated-read-database.js';
import { TransactionRunner } from './transaction-runner.js';
import { WebhookRepository } from './webhooks/webhook.repository.js';

/** The read API's database: the primary, or a replica per request with DATABASE_READ_URLS. */
const READ_DATABASE = {
  provide: ReadDatabase,
  inject: [DataSource, AppConfig, CheckpointStore],
  useFactory: (primary: DataSource, config: AppConfig, checkpoints: CheckpointStore) => {
    const { database } = config;
    if (database.type !== 'postgres' || !database.readReplicas) return new ReadDatabase(primary);
    const { urls, maxLagMs } = database.readReplicas;
    const replicas = urls.map(
      (url) => new ReadReplica(url, buildReplicaDataSourceOptions(database, url), maxLagMs),
    );
    return new ReplicatedReadDatabase(primary, replicas, maxLagMs, checkpoints);
  },
};

const PROVIDERS = [
  READ_DATABASE,
  TransactionRunner,
  MigrationStatus,
  EventStore,
  CheckpointStampBoard,
  CheckpointStore,
  ProjectionLagReader,
  ReadModelTables,
  ApiKeyRepository,
  CompanyReader,
  PageReader,
  ScrapeFileReader,
  PricingSnapshotReader,
  PricingChangeReader,
  PlanSearchReader,
  PriceIndexReader,
  WebhookRepository,
  ExchangeRateReader,
];

/**
 * The database: connected and migrated before any other provider can use it. With
 * `statementTimeout` (the processes that serve requests), no statement waits more than
 * DATABASE_STATEMENT_TIMEOUT_MS for it; the worker and the command-line tool take what their
 * work takes (a projection behind a slow disk, a rebuild's deletes).
 */
@Global()
@Module({})
export class PersistenceModule {
  static forRoot({ statementTimeout }: { statementTimeout: boolean }): DynamicModule {
    return {
      module: PersistenceModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: ({ database }: AppConfig) =>
            buildDataSourceOptions(
              statementTimeout ? database : { ...database, statementTimeoutMs: 0 },
            ),
          dataSourceFactory: async (options) => {
            if (!options) throw new Error('database options missing');
            const dataSource = await new DataSource(options).initialize();
            await runMigrations(dataSource);
            return dataSource;
          },
        }),
      ],
      providers: PROVIDERS,
      exports: PROVIDERS,
    };
  }
}
