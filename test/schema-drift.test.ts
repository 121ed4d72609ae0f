import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions, runMigrations } from '#app/persistence';
import { testEnvironment } from './support/test-environment.js';

const environment = testEnvironment();
let dataSource: DataSource;

beforeAll(async () => {
  const options = buildDataSourceOptions(environment.config().database);
  dataSource = await new DataSource(options).initialize();
});

afterAll(async () => {
  await dataSource?.destroy();
  await environment.cleanup();
});

describe('migrations and entities agree', () => {
  it('apply once, then again as a no-op', async () => {
    expect(await runMigrations(dataSource)).toEqual([
      'InitialSchema1763700000000',
      'CompanyListIndexes1763800000000',
      'CompanySearchTrigram1763900000000',
      'DropUnusedScrapeIndex1764000000000',
      'PricingChanges1764100000000',
      'Webhooks1764200000000',
      'ProjectionFailures1764400000000',
      'CompanySearchByCategory1764500000000',
      'ExchangeRates1764600000000',
      'PlanSearch1764700000000',
      'PricingSnapshotPositions1764800000000',
      'ChangeSignificance1764900000000',
      'PriceIndex1765000000000',
    ]);
    expect(await runMigrations(dataSource)).toEqual([]);
  });

  // The equivalent of `typeorm migration:generate` reporting "No changes".
  it('leave nothing for TypeORM to generate from the entities', async () => {
    const pending = await dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((query) => query.query)).toEqual([]);
  });
});
