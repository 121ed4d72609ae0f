import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PricingRecord } from '#app/contracts';
import { buildDataSourceOptions } from '#app/persistence';
import { DataSource, type MigrationInterface } from 'typeorm';
import { ingestAndProject } from './support/catalogue-fixture.js';
import { records } from './support/records.js';
import { startTestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/**
 * Migration 1764900000000 on a database deployed before it: the changes already in the feed get
 * the significance and sizes the projector writes today, with nothing asked of the operator, and
 * the webhooks already registered get no new filter.
 * The feed is made by the real pipeline, then the migration is undone (the schema before it)
 * and applied again; it must weigh every row as the projector had, over several of its batches.
 */

const environment = testEnvironment();
const MIGRATION = 'ChangeSignificance1764900000000';
const WEIGHT_COLUMNS = [
  'significance',
  'old_monthly_equivalent',
  'new_monthly_equivalent',
  'change_percent',
];

type Plan = PricingRecord['plans'][number];
type Charge = Plan['charges'][number];

const charge = (billing: string, display_name: string, price: number | null): Charge => ({
  billing,
  currency: 'USD',
  price,
  charge_type: 'flat',
  pricing_metric: null,
  display_name,
});
const plan = (internal_name: string, charges: Charge[], discounts: Plan['discounts'] = []) => ({
  display_name: internal_name,
  internal_name,
  add_on: false,
  charges,
  discounts,
});
const ANNUAL = {
  discount_category: 'annual_discount',
  amount_type: 'percent',
  amount: 20,
  description: 'Save 20%',
  duration: '12 months',
};
const MONTHLY = 'monthly_recurring_billed_monthly';
const YEARLY = 'annual_recurring_billed_yearly';

/** Three extractions whose changes take every branch of the weighing that a row must carry. */
const EXTRACTIONS: [string, Plan[]][] = [
  [
    '20250105',
    [
      plan('free', [charge('freemium', 'Free', null)]),
      plan('pro', [charge(MONTHLY, 'Pro', 10), charge(YEARLY, 'Pro yearly', 96)], [ANNUAL]),
    ],
  ],
  [
    '20250201',
    [
      plan('pro', [
        charge(MONTHLY, 'Pro', 12),
        charge(YEARLY, 'Pro yearly', 90),
        charge('one_time', 'Setup', 50),
        charge('pricing_not_disclosed', 'Volume', null),
      ]),
      plan('team', [charge(MONTHLY, 'Team', 20)]),
    ],
  ],
  [
    '20250301',
    [
      plan('pro', [
        charge(MONTHLY, 'Pro', null),
        charge(YEARLY, 'Pro yearly', 91),
        charge('one_time', 'Setup', 55),
      ]),
      plan('team', [charge(MONTHLY, 'Team', 0), charge('freemium', 'Team trial', null)], [ANNUAL]),
    ],
  ],
];

async function allChanges(dataSource: DataSource): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = await dataSource.query(
    'SELECT * FROM pricing_changes ORDER BY event_transaction_id, event_seq, change_index',
  );
  // Bigints as text, whichever the driver gives.
  return rows.map((row) => ({
    ...row,
    event_transaction_id: String(row['event_transaction_id']),
    event_seq: String(row['event_seq']),
  }));
}

let dataSource: DataSource;

beforeAll(async () => {
  const api = await startTestApp(environment.config());
  try {
    await ingestAndProject(api, [
      records.company('mig.io'),
      records.page('mig.io'),
      ...EXTRACTIONS.map(([version]) => records.scrape('mig.io', '', version)),
    ]);
    for (const [version, plans] of EXTRACTIONS) {
      await ingestAndProject(api, [records.pricing('mig.io', '', version, 0, { plans })]);
    }
  } finally {
    await api.close();
  }
  dataSource = await new DataSource(
    buildDataSourceOptions(environment.config().database),
  ).initialize();
});

afterAll(async () => {
  await dataSource?.destroy();
  await environment.cleanup();
});

describe('migration 1764900000000 (how much a change matters)', () => {
  it('weighs the changes already in the feed exactly as the projector does', async () => {
    // More rows than one batch of the migration: copies of the projected rows at later indexes.
    const columns = Object.keys((await allChanges(dataSource))[0]!);
    for (const column of WEIGHT_COLUMNS) expect(columns).toContain(column);
    const offset = dataSource.options.type === 'postgres' ? '$1' : '?';
    const copied = columns.map((column) =>
      column === 'change_index' ? `change_index + ${offset}` : column,
    );
    for (let total = (await allChanges(dataSource)).length; total < 2_500; total *= 2) {
      const [{ next }] = (await dataSource.query(
        'SELECT MAX(change_index) + 1 AS next FROM pricing_changes',
      )) as [{ next: number | string }];
      await dataSource.query(
        `INSERT INTO pricing_changes (${columns.join(', ')})
         SELECT ${copied.join(', ')} FROM pricing_changes`,
        [Number(next)],
      );
    }
    const projected = await allChanges(dataSource);
    expect(projected.length).toBeGreaterThan(2_000);
    expect(new Set(projected.map((row) => row['significance']))).toEqual(
      new Set(['minor', 'moderate', 'major']),
    );
    // Price changes with a size and without one (a one-time fee has no monthly equivalent).
    const sizes = projected
      .filter((row) => row['event_type'] === 'price_increased')
      .map((row) => row['change_percent']);
    expect(sizes).toContain(null);
    expect(sizes.some((size) => typeof size === 'number')).toBe(true);

    const migration = (
      buildDataSourceOptions(environment.config().database)
        .migrations as (new () => MigrationInterface)[]
    )
      .map((Migration) => new Migration())
      .find((each) => each.name === MIGRATION)!;
    const runner = dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      const before = await allChanges(dataSource);
      expect(Object.keys(before[0]!)).not.toContain('significance');
      await dataSource.query(
        `INSERT INTO webhooks (id, api_key_id, url, secret, event_types, companies, start_transaction_id, start_seq, created_at)
         VALUES ('webhook-1', 'key-1', 'https://hooks.example.com/x', 'whsec_x', NULL, '["mig.io"]', 0, 0, '2025-03-01T06:00:00.000Z')`,
      );
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    expect(await allChanges(dataSource)).toEqual(projected);
    // A webhook registered before keeps its filters, and has none of the new ones.
    expect(
      await dataSource.query(
        'SELECT companies, categories, min_significance, min_change_percent FROM webhooks',
      ),
    ).toEqual([
      {
        companies: '["mig.io"]',
        categories: null,
        min_significance: null,
        min_change_percent: null,
      },
    ]);
  });
});
