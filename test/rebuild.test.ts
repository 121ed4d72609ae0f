import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECTOR_NAMES, TransactionRunner } from '#app/persistence';
import { ProjectionRunner } from '../apps/worker/src/projections/projection-runner.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const environment = testEnvironment();
let api: TestApp;
let transactions: TransactionRunner;
let runner: ProjectionRunner;

/** Every read model and its primary key. */
const READ_MODELS = {
  companies: 'id',
  pricing_pages: 'id',
  scrape_files: 'id',
  pricing_snapshots: 'id',
  pricing_changes: 'event_transaction_id, event_seq, change_index',
  exchange_rates: 'base, quote, date',
  plan_search_companies: 'slug',
  plan_search_pages: 'page_id',
  plan_search_plans: 'page_id, plan_index',
  plan_search_charges: 'page_id, plan_index, charge_index',
  plan_search_discounts: 'page_id, plan_index, discount_index',
  price_index_companies: 'slug',
  price_index_versions: 'page_id, version',
  price_index_entries: 'page_id, version, entry_index',
} as const;
type Snapshot = Record<keyof typeof READ_MODELS, Record<string, unknown>[]>;

const sleep = (ms: number) => new Promise<void>((next) => setTimeout(next, ms));

/** Every row of every read model, in primary-key order. */
async function snapshot(): Promise<Snapshot> {
  const tables = await Promise.all(
    Object.entries(READ_MODELS).map(async ([table, key]) => [
      table,
      await transactions.query(`SELECT * FROM ${table} ORDER BY ${key}`),
    ]),
  );
  return Object.fromEntries(tables) as Snapshot;
}

async function count(table: string): Promise<number> {
  const [row] = await transactions.query<{ n: number | string }>(
    `SELECT COUNT(*) AS n FROM ${table}`,
  );
  return Number(row?.n);
}

/** The last event in projection order: (transaction id, seq) on PostgreSQL, seq on SQLite. */
async function logEnd(): Promise<{ seq: number; transactionId: string }> {
  const [row] = await transactions.query<{ seq: number | string; transaction_id: unknown }>(
    'SELECT seq, transaction_id FROM events ORDER BY transaction_id DESC, seq DESC LIMIT 1',
  );
  return { seq: Number(row?.seq ?? 0), transactionId: String(row?.transaction_id ?? '0') };
}

async function checkpoints(): Promise<Record<string, { seq: number; transactionId: string }>> {
  const rows = await transactions.query<{
    name: string;
    last_seq: number | string;
    last_transaction_id: string;
  }>('SELECT name, last_seq, last_transaction_id FROM projection_checkpoints ORDER BY name');
  return Object.fromEntries(
    rows.map((row) => [
      row.name,
      { seq: Number(row.last_seq), transactionId: String(row.last_transaction_id) },
    ]),
  );
}

/**
 * Catches up until every checkpoint stands at the end of the log. One catchUp() may return
 * early while the in-process scheduler (or the CLI) holds a checkpoint, so this also waits.
 */
async function caughtUp(timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await runner.catchUp();
    const end = await logEnd();
    const positions = await checkpoints();
    if (
      PROJECTOR_NAMES.every(
        (name) =>
          positions[name]?.seq === end.seq && positions[name]?.transactionId === end.transactionId,
      )
    ) {
      return;
    }
    if (Date.now() > deadline) {
      throw new Error(`projections stuck at ${JSON.stringify(positions)}, log end ${end.seq}`);
    }
    await sleep(25);
  }
}

async function ingestAndSettle(batch: Parameters<TestApp['ingest']>[0]): Promise<void> {
  const status = await api.settled(await api.ingest(batch));
  expect(status.counts).toMatchObject({ failed: 0, unknown: 0 });
  expect(status.counts.done).toBeGreaterThan(0);
}

let before: Snapshot;

beforeAll(async () => {
  api = await startTestApp(environment.config(), { withWorker: true });
  transactions = api.app.get(TransactionRunner);
  runner = api.app.get(ProjectionRunner);

  // Dependencies first (company, page, scrape, pricing): each batch waits for the previous one.
  await ingestAndSettle([
    records.company('acme.io'),
    records.company('globex.com', { category: 'Finance', employees: '1001-5000' }),
    records.company('initech.dev'),
  ]);
  await ingestAndSettle([
    records.page('acme.io'),
    records.page('acme.io', 'enterprise'),
    records.page('globex.com'),
    records.page('initech.dev', 'team'),
  ]);
  await ingestAndSettle([
    records.scrape('acme.io', '', '20250105'),
    records.scrape('acme.io', '', '20250105', { scraper: 'scraper_2', score: 6 }),
    records.scrape('acme.io', '', '20250201', { valid: false, banner_free: null }),
    records.scrape('acme.io', 'enterprise', '20250105', {
      page_url: 'https://acme.io/pricing/enterprise',
    }),
    records.scrape('globex.com', '', '20250105', { html_url: 'https://cdn.example.com/g.html' }),
    records.scrape('initech.dev', 'team', '20250301'),
  ]);
  await ingestAndSettle([
    records.pricing('acme.io', '', '20250105', 10),
    records.pricing('acme.io', '', '20250201', 12),
    records.pricing('acme.io', 'enterprise', '20250105', 99),
    records.pricing('globex.com', '', '20250105', 25),
  ]);
  await ingestAndSettle([
    records.exchangeRate('20250101'),
    records.exchangeRate('20250201', { rate: 1.0371 }),
    records.exchangeRate('20250101', { base: 'GBP', rate: 1.2512 }),
  ]);
  // A profile change: the companies row is updated after it was inserted.
  await ingestAndSettle([
    records.company('acme.io', { name: 'Acme Corporation', employees: '201-500' }),
  ]);
  await caughtUp();
  before = await snapshot();
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

describe('rebuilding the read models from the event log', () => {
  it('has projected what was ingested', () => {
    expect(before.companies).toHaveLength(3);
    expect(before.pricing_pages).toHaveLength(4);
    expect(before.scrape_files).toHaveLength(6);
    expect(before.pricing_snapshots).toHaveLength(4);
    expect(before.exchange_rates).toEqual([
      { date: '20250101', base: 'EUR', quote: 'USD', rate: 1.0842 },
      { date: '20250201', base: 'EUR', quote: 'USD', rate: 1.0371 },
      { date: '20250101', base: 'GBP', quote: 'USD', rate: 1.2512 },
    ]);
    // Three first extractions (one plan each), then acme's price going from 10 to 12.
    expect(
      before.pricing_changes.map((change) => [
        change['composite_slug'],
        change['from_version'],
        change['to_version'],
        change['event_type'],
        change['field'],
        change['significance'],
        change['change_percent'],
      ]),
    ).toEqual([
      ['acme', null, '20250105', 'plan_added', null, 'major', null],
      ['acme', '20250105', '20250201', 'price_increased', 'price', 'major', 20],
      ['acme', '20250105', '20250201', 'charge_changed', 'price_display', 'minor', null],
      ['acme.enterprise', null, '20250105', 'plan_added', null, 'major', null],
      ['globex', null, '20250105', 'plan_added', null, 'major', null],
    ]);
    expect(before.pricing_pages.map((page) => page['composite_slug']).sort()).toEqual([
      'acme',
      'acme.enterprise',
      'globex',
      'initech.team',
    ]);
    const acme = before.companies.find((company) => company['slug'] === 'acme.io');
    expect(acme).toMatchObject({ name: 'Acme Corporation', employees: '201-500' });
    expect(acme?.['updated_at']).not.toBe(acme?.['created_at']);
  });

  it('rebuild() restores every table exactly, even after the read models were damaged', async () => {
    // Damage every read model by hand: a rebuild must not depend on what is there.
    await transactions.query("DELETE FROM companies WHERE slug = 'globex.com'");
    await transactions.query("UPDATE companies SET name = 'Tampered' WHERE slug = 'acme.io'");
    await transactions.query("UPDATE pricing_snapshots SET document = '{}'");
    await transactions.query('DELETE FROM scrape_files');
    await transactions.query(
      "UPDATE pricing_changes SET event_type = 'plan_removed', significance = 'minor', change_percent = NULL",
    );
    await transactions.query("DELETE FROM exchange_rates WHERE base = 'GBP'");
    await transactions.query('UPDATE exchange_rates SET rate = 2');
    await transactions.query('DELETE FROM price_index_versions WHERE until IS NULL');
    await transactions.query("UPDATE price_index_entries SET category = 'Tampered'");
    await transactions.query(
      "INSERT INTO exchange_rates (date, base, quote, rate) VALUES ('20250101', 'CHF', 'USD', 1.1)",
    );
    await transactions.query(
      `INSERT INTO pricing_pages (id, company_slug, page_slug, composite_slug, pricing_page_url, created_at)
       VALUES ('00000000-0000-4000-8000-000000000000', 'ghost.io', '', 'ghost', 'https://ghost.io', $1)`,
      [new Date().toISOString()],
    );
    expect(await snapshot()).not.toEqual(before);

    const applied = await runner.rebuild();
    expect(applied).toBeGreaterThanOrEqual(0);
    await caughtUp();

    const after = await snapshot();
    expect(after).toEqual(before);
    for (const table of Object.keys(READ_MODELS)) expect(await count(table)).toBeGreaterThan(0);

    const end = await logEnd();
    const positions = await checkpoints();
    for (const name of PROJECTOR_NAMES) {
      expect(positions[name], name).toEqual({ seq: end.seq, transactionId: end.transactionId });
    }
  });

  it('the rebuild command (node dist/apps/worker/src/cli.js rebuild) restores every table exactly', async () => {
    await transactions.query("DELETE FROM pricing_snapshots WHERE company_slug = 'acme.io'");
    await transactions.query("UPDATE companies SET employees = '1-10'");
    await transactions.query("DELETE FROM pricing_changes WHERE company_slug = 'globex.com'");
    await transactions.query(
      'UPDATE pricing_changes SET old_monthly_equivalent = 1, new_monthly_equivalent = NULL',
    );
    await transactions.query("DELETE FROM exchange_rates WHERE date = '20250201'");
    await transactions.query('DELETE FROM price_index_entries');
    await transactions.query('UPDATE price_index_versions SET until = NULL');
    await transactions.query('DELETE FROM plan_search_charges');

    const { stdout } = await run(process.execPath, ['dist/apps/worker/src/cli.js', 'rebuild'], {
      cwd: root,
      env: { ...process.env, ...environment.env },
      timeout: 60_000,
    });
    // execFile rejects on a non-zero exit, so reaching here means exit code 0.
    expect(stdout).toMatch(/rebuilt: \d+ events applied/);

    await caughtUp();
    expect(await snapshot()).toEqual(before);
    const end = await logEnd();
    const positions = await checkpoints();
    for (const name of PROJECTOR_NAMES) {
      expect(positions[name], name).toEqual({ seq: end.seq, transactionId: end.transactionId });
    }
  });
});
