export { PersistenceModule } from './persistence.module.js';
export { buildDataSourceOptions } from './database-options.js';
export { MigrationStatus, runMigrations } from './migrate.js';
export { Transaction, TransactionRunner } from './transaction-runner.js';
export { ReadDatabase, type ReadTarget, type ReplicaState } from './replicas/read-database.js';
export {
  EventStore,
  type PendingAppend,
  type LogPosition,
  type PositionedEvent,
} from './events/event-store.js';
export { StreamConcurrencyError } from './events/concurrency.error.js';
export {
  CheckpointStore,
  START_OF_LOG,
  type CheckpointState,
  type ProjectorFailure,
} from './projections/checkpoint-store.js';
export {
  CheckpointStampBoard,
  STAMP_LIFETIME_MS,
  type PublishedStamps,
} from './projections/checkpoint-stamp-board.js';
export {
  PROJECTOR_NAMES,
  ProjectionLagReader,
  type ProjectorName,
} from './projections/projection-lag.reader.js';
export { ReadModelTables } from './read-models/read-model-tables.js';
export {
  PlanSearchReader,
  type PlanSearchFilters,
  type PlanSearchOrder,
  type PlanSearchRow,
} from './read-models/plan-search.reader.js';
export type {
  PlanSearchCompanyFields,
  PlanSearchPageRows,
} from './read-models/plan-search.tables.js';
export {
  PriceIndexReader,
  PRICE_INDEX_CHUNK_CANDIDATES,
  pagesStatement,
  type InForceRange,
  type PriceIndexPage,
  type PriceIndexExtraction,
  type PriceIndexSelection,
} from './read-models/price-index.reader.js';
export type { PriceIndexEnd } from './read-models/price-index.tables.js';
export type { PriceIndexEntryEntity } from './entities/price-index-entry.entity.js';
export type { PriceIndexVersionEntity } from './entities/price-index-version.entity.js';
export { ApiKeyRepository } from './keys/api-key.repository.js';
export { ApiKeyEntity } from './entities/api-key.entity.js';
export { CompanyEntity } from './entities/company.entity.js';
export { PricingPageEntity } from './entities/pricing-page.entity.js';
export { ScrapeFileEntity } from './entities/scrape-file.entity.js';
export { PricingSnapshotEntity } from './entities/pricing-snapshot.entity.js';
export { PricingChangeEntity } from './entities/pricing-change.entity.js';
export {
  CompanyReader,
  COMPANY_SORT_COLUMNS,
  type CompanySortField,
  type CompanyFilters,
  type CompanyListQuery,
  type CompanyOrder,
} from './read-models/company.reader.js';
export { PageReader } from './read-models/page.reader.js';
export { ScrapeFileReader } from './read-models/scrape-file.reader.js';
export {
  PricingSnapshotReader,
  type PageExtraction,
  type PageSelection,
  type PricingExport,
} from './read-models/pricing-snapshot.reader.js';
export {
  PricingChangeReader,
  pricingChangeView,
  type ExtractionPosition,
  type FeedPosition,
  type PricingChangeQuery,
} from './read-models/pricing-change.reader.js';
export {
  afterExtraction,
  decodeCursor,
  encodeCursor,
  START_OF_FEED,
} from './read-models/feed-cursor.js';
export { WebhookEntity } from './entities/webhook.entity.js';
export { WebhookRepository, type DispatchState } from './webhooks/webhook.repository.js';
export {
  isDatabaseUnavailable,
  isStatementCancelled,
  isTransientDatabaseError,
} from './database-unavailable.js';
export { ExchangeRateEntity } from './entities/exchange-rate.entity.js';
export { ExchangeRateReader } from './read-models/exchange-rate.reader.js';
