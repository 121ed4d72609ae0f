import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReadModelTables, ScrapeFileEntity, TransactionRunner } from '#app/persistence';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/**
 * Read-model rows go in by COPY on PostgreSQL and by INSERT on SQLite: every value, the
 * characters COPY's text format escapes and NULL included, must come back as it went in.
 */
const environment = testEnvironment();
let api: TestApp;
let transactions: TransactionRunner;
let tables: ReadModelTables;

beforeAll(async () => {
  api = await startTestApp(environment.config());
  transactions = api.app.get(TransactionRunner);
  tables = api.app.get(ReadModelTables);
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

const awkward = 'tab\there, line\nbreak, return\rhere, back\\slash, \\N, quote " and \' é 漢';

function row(id: string, overrides: Partial<ScrapeFileEntity> = {}): ScrapeFileEntity {
  return {
    id,
    pageId: 'page-copy',
    companySlug: 'copy.io',
    pageSlug: '',
    version: '20250101',
    scraper: `scraper_${id}`,
    pageUrl: `https://copy.io/${awkward}`,
    screenshotUrl: 'https://cdn.example.com/a.png',
    markdownUrl: 'https://cdn.example.com/a.md',
    htmlUrl: null,
    ocrUrl: awkward,
    valid: true,
    score: 7,
    bannerFree: false,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

describe('read-model table writes', () => {
  it('gives back every value as it was written, escapes and NULL included', async () => {
    const written = [
      row('1'),
      row('2', { valid: null, score: null, bannerFree: null, ocrUrl: '' }),
    ];
    await transactions.run((tx) => tables.scrapeFiles.insert(tx, written));
    const read = await transactions.run((tx) =>
      tx.manager.getRepository(ScrapeFileEntity).find({
        where: { pageId: 'page-copy' },
        order: { id: 'ASC' },
      }),
    );
    expect(read).toEqual(written);
  });

  it('writes nothing of a batch that breaks a constraint', async () => {
    const duplicate = [row('3'), row('3')];
    await expect(
      transactions.run((tx) => tables.scrapeFiles.insert(tx, duplicate)),
    ).rejects.toThrow();
    const [counted] = await transactions.query<{ count: number | string }>(
      "SELECT COUNT(*) AS count FROM scrape_files WHERE id = '3'",
    );
    expect(Number(counted?.count)).toBe(0);
  });
});
