import { afterAll, describe, expect, it } from 'vitest';
import { streamIds } from '#app/domain';
import { buildDataSourceOptions, runMigrations } from '#app/persistence';
import { DataSource, type MigrationInterface } from 'typeorm';
import { testEnvironment } from './support/test-environment.js';

/**
 * Migration 1764800000000 on a database deployed before it: the pricing snapshots already
 * there get their extraction event's position from the log, with nothing asked of the operator.
 */

const environment = testEnvironment();
const POSITIONS_MIGRATION = 1764800000000;

afterAll(async () => {
  await environment.cleanup();
});

const timestampOf = (migration: unknown) =>
  Number(/(\d{13})$/.exec((migration as { name: string }).name)?.[1]);

async function connect(migrations: (migration: unknown) => boolean): Promise<DataSource> {
  const options = buildDataSourceOptions(environment.config().database);
  const all = options.migrations as (new () => MigrationInterface)[];
  return new DataSource({
    ...options,
    migrations: all.filter(migrations),
  } as typeof options).initialize();
}

/** Each statement on its own: on PostgreSQL each event gets a transaction id of its own. */
async function insert(dataSource: DataSource, table: string, row: Record<string, string | number>) {
  const values = Object.values(row).map((value) =>
    typeof value === 'number' ? String(value) : `'${value}'`,
  );
  await dataSource.query(
    `INSERT INTO ${table} (${Object.keys(row).join(', ')}) VALUES (${values.join(', ')})`,
  );
}

const EXTRACTIONS = [
  ['alpha.io', '', '20250101'],
  ['beta.io', 'team', '20250101'],
  ['alpha.io', '', '20250201'],
] as const;

describe('migration 1764800000000 (pricing snapshot positions)', () => {
  it("gives the snapshots already there their event's position, read from the log", async () => {
    const before = await connect((migration) => timestampOf(migration) < POSITIONS_MIGRATION);
    await runMigrations(before);
    const event = (streamId: string, type: string, n: number) => ({
      stream_id: streamId,
      stream_version: 1,
      type,
      schema_version: 1,
      payload: '{}',
      metadata: '{}',
      idempotency_key: `positions-test:${n}`,
      recorded_at: '2025-03-01T06:00:00.000Z',
    });
    await insert(before, 'events', event(streamIds.company('alpha.io'), 'company.registered', 0));
    for (const [n, [company, page, version]] of EXTRACTIONS.entries()) {
      // Another stream of the same page and version first: only the extraction's matches.
      await insert(
        before,
        'events',
        event(streamIds.scrape(company, page, version, 'scraper_1'), 'scrape.captured', 10 + n),
      );
      await insert(
        before,
        'events',
        event(streamIds.pricing(company, page, version), 'pricing.extracted', 20 + n),
      );
      await insert(before, 'pricing_snapshots', {
        id: `snapshot-${n}`,
        page_id: `page-${company}-${page}`,
        company_slug: company,
        page_slug: page,
        version,
        document: '{}',
        created_at: '2025-03-01T06:00:00.000Z',
      });
    }
    await before.destroy();

    const after = await connect(() => true);
    try {
      // It runs first; the migrations written after it run after it.
      expect((await runMigrations(after))[0]).toBe('PricingSnapshotPositions1764800000000');
      const logged = await after.query(
        `SELECT stream_id, CAST(transaction_id AS text) AS transaction_id, seq FROM events
         WHERE type = 'pricing.extracted' ORDER BY seq`,
      );
      const snapshots = await after.query(
        `SELECT company_slug, page_slug, version, event_transaction_id, event_seq
         FROM pricing_snapshots ORDER BY id`,
      );
      expect(
        (snapshots as Record<string, string | number>[]).map((row) => ({
          stream_id: streamIds.pricing(
            String(row.company_slug),
            String(row.page_slug),
            String(row.version),
          ),
          transaction_id: String(row.event_transaction_id),
          seq: Number(row.event_seq),
        })),
      ).toEqual(
        (logged as Record<string, string | number>[]).map((row) => ({
          stream_id: row.stream_id,
          transaction_id: String(row.transaction_id),
          seq: Number(row.seq),
        })),
      );
      if (environment.dialect === 'postgres') {
        const ids = new Set(
          snapshots.map((row: Record<string, unknown>) => row.event_transaction_id),
        );
        expect(ids.size).toBe(EXTRACTIONS.length);
      }
    } finally {
      await after.destroy();
    }
  });
});
