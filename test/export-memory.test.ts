import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PricingDocument } from '#app/domain';
import { buildDataSourceOptions, PricingSnapshotEntity, runMigrations } from '#app/persistence';
import { DataSource } from 'typeorm';
import {
  apiReady,
  showOutputOnFailure,
  startApiProcess,
  stopApiProcess,
  type ApiProcess,
} from './support/api-process.js';
import { runCli, said } from './support/cli-process.js';
import { testEnvironment } from './support/test-environment.js';

/**
 * An export far larger than the heap of the process that writes it: 10,000 extractions (the
 * most one call answers) of twenty charges each (200,000 CSV lines, some 36 MB; 100 MB of
 * NDJSON), written into the read model directly, then exported by an API process and by the
 * command-line tool, each with an 80 MB heap. An API process holds some 50 MB once started
 * (mostly its libraries' code), so neither the NDJSON nor the documents either format is made
 * from (parsed, they are larger than their text) would fit: the exports finish only because the
 * text is read a chunk at a time and written as the reader takes it. An export that large
 * outlasts a socket's buffers, so it can fail half-way (the client must see it cut short), and
 * a client that stops reading holds it open (a shutdown must cut it rather than wait).
 */

const HEAP = { NODE_OPTIONS: '--max-old-space-size=80' };
const EXTRACTIONS = 10_000;
const CHARGES = 20;

const environment = testEnvironment();
let directory: string;
let api: ApiProcess | null = null;
let key: string;

function documentOf(n: number): PricingDocument {
  const page = n % 100;
  const version = new Date(Date.UTC(2000, 0, 1 + Math.floor(n / 100)))
    .toISOString()
    .slice(0, 10)
    .replaceAll('-', '');
  return {
    slug: `company-${page}`,
    company_slug: `company-${page}.io`,
    page_subslug: '',
    page_id: `page-${page}`,
    version,
    scrape: {
      id: `scrape-${n}`,
      version,
      page_url: `https://company-${page}.io/pricing`,
      created_at: '2025-01-01T00:00:00.000Z',
    },
    plans: [
      {
        id: `plan-${n}`,
        display_name: 'Business, billed "yearly"',
        internal_name: 'business',
        add_on: false,
        charges: Array.from({ length: CHARGES }, (_, c) => ({
          id: `charge-${n}-${c}`,
          billing: c % 2 ? 'monthly_recurring_billed_monthly' : 'annual_recurring_billed_yearly',
          currency: 'USD',
          price: 12 * (c + 1),
          charge_type: 'recurring',
          pricing_metric: {
            id: `metric-${n}-${c}`,
            display_name: 'per seat',
            modality: 'user_based',
          },
          usage_type: 'licensed',
          display_name: `Seat tier ${c}, up to ${(c + 1) * 10} seats`,
          price_display: `$${12 * (c + 1)} per seat`,
          included_quantity: { seats: (c + 1) * 10, storage_gb: 100, projects: 'unlimited' },
          overage_info: { unit_price: 1.5, unit: 'seat', note: 'billed at the end of the month' },
        })),
        discounts: [],
      },
    ],
  };
}

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'export-memory-'));
  await withDatabase(async (dataSource) => {
    await runMigrations(dataSource);
    await dataSource.transaction(async (manager) => {
      const snapshots = manager.getRepository(PricingSnapshotEntity);
      for (let start = 0; start < EXTRACTIONS; start += 100) {
        await snapshots.insert(
          Array.from({ length: 100 }, (_, i) => {
            const document = documentOf(start + i);
            return {
              id: `snapshot-${start + i}`,
              pageId: document.page_id,
              companySlug: document.company_slug,
              pageSlug: '',
              version: document.version,
              document: JSON.stringify(document),
              createdAt: '2025-01-01T00:00:00.000Z',
              eventTransactionId: '0',
              eventSeq: String(start + i + 1),
            };
          }),
        );
      }
    });
  });
}, 120_000);

afterAll(async () => {
  if (api) await stopApiProcess(api);
  rmSync(directory, { recursive: true, force: true });
  await environment.cleanup();
});

const exported = (format: string) =>
  fetch(`${api!.baseUrl}/api/export/pricing?format=${format}`, {
    headers: { authorization: `Bearer ${key}` },
  });

async function readToEnd(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  while (!(await reader.read()).done);
}

async function withDatabase<T>(work: (dataSource: DataSource) => Promise<T>): Promise<T> {
  const dataSource = await new DataSource(
    buildDataSourceOptions(environment.config().database),
  ).initialize();
  try {
    return await work(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/** Counts the lines of a stream as it goes by, keeping only its first line. */
async function lines(chunks: AsyncIterable<Uint8Array>): Promise<{ count: number; first: string }> {
  let count = 0;
  let first = '';
  for await (const chunk of chunks) {
    if (count === 0) first += Buffer.from(chunk).toString('utf8');
    for (const byte of chunk) if (byte === 10) count += 1;
  }
  return { count, first: first.slice(0, first.indexOf('\n') + 1) };
}

describe('an export larger than the heap', () => {
  it('streams 200,000 CSV lines and 10,000 NDJSON documents from an API process', async () => {
    api = await startApiProcess('api (80 MB heap)', { ...environment.env, ...HEAP });
    showOutputOnFailure([api]);
    await apiReady(api);
    const created = await fetch(`${api.baseUrl}/admin/keys`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${environment.env.ADMIN_TOKEN}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ name: 'warehouse', plan: 'enterprise' }),
    });
    ({ key } = (await created.json()) as { key: string });

    const csv = await exported('csv');
    expect(csv.status).toBe(200);
    const csvLines = await lines(csv.body!);
    expect(csvLines.count).toBe(1 + EXTRACTIONS * CHARGES);
    expect(csvLines.first).toMatch(/^slug,company_slug,/);

    const ndjson = await exported('ndjson');
    expect(ndjson.status).toBe(200);
    const ndjsonLines = await lines(ndjson.body!);
    expect(ndjsonLines.count).toBe(EXTRACTIONS);
    expect(JSON.parse(ndjsonLines.first)).toMatchObject({ slug: 'company-0', version: '20000101' });
    expect(api.child.exitCode).toBeNull();
  });

  it('writes them into a file from the command-line tool', async () => {
    const output = join(directory, 'pricing.csv');
    const result = await runCli(
      environment.env,
      ['export', '--format', 'csv', '--output', output],
      HEAP,
      // A hang guard: a shared two-core machine can take several times the usual 15 s.
      { killAfterMs: 110_000 },
    );
    expect(result.code, said(result)).toBe(0);
    expect(result.stdout).toContain(`${output}: ${EXTRACTIONS} extractions (csv)`);
    expect((await lines(createReadStream(output))).count).toBe(1 + EXTRACTIONS * CHARGES);
  });

  it('cuts the answer short when the database fails mid-way, never one that looks complete', async () => {
    const reader = (await exported('ndjson')).body!.getReader();
    await reader.read();
    // The rest waits for the client; meanwhile the table goes away.
    await withDatabase((dataSource) =>
      dataSource.query('ALTER TABLE pricing_snapshots RENAME TO pricing_snapshots_away'),
    );
    try {
      await expect(readToEnd(reader)).rejects.toThrow();
    } finally {
      await withDatabase((dataSource) =>
        dataSource.query('ALTER TABLE pricing_snapshots_away RENAME TO pricing_snapshots'),
      );
    }
    expect((await exported('csv')).status).toBe(200);
  });

  it('cuts an export in flight at shutdown, which ends in time and exits 0', async () => {
    const reader = (await exported('ndjson')).body!.getReader();
    await reader.read();
    // The client reads no further: the export waits for it, and must not hold the shutdown.
    const running = api!;
    api = null;
    running.child.kill('SIGTERM');
    const [code] = (await running.exit) as [number | null];
    expect(code, running.output.slice(-2000)).toBe(0);
    await expect(readToEnd(reader)).rejects.toThrow();
  });
});
