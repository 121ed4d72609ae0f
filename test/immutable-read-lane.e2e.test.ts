import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CompanyReader, TransactionRunner } from '#app/persistence';
import { ImmutableReadCache } from '../apps/api/src/http/immutable-read.cache.js';
import { ingestAndProject } from './support/catalogue-fixture.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/**
 * The lane ahead of Nest: a URL whose answer a route has sent is answered again from an
 * onRequest hook. What a client sees must not tell the lane from the route, except that a
 * change behind the API's back (SQL, which no checkpoint sees) does not show while the answer
 * is kept, which is how the tests know which of the two answered.
 */
const environment = testEnvironment();
let api: TestApp;
let key: string;
let transactions: TransactionRunner;

beforeAll(async () => {
  api = await startTestApp(environment.config());
  transactions = api.app.get(TransactionRunner);
  key = await api.createKey(['read'], 'enterprise');
  await ingestAndProject(api, [
    records.company('lane.io', { name: 'Laneway' }),
    records.page('lane.io'),
    records.scrape('lane.io', '', '20250301'),
    records.pricing('lane.io', '', '20250301'),
  ]);
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

const get = (path: string, headers: Record<string, string> = {}, withKey = key) =>
  api.request(path, { headers: { authorization: `Bearer ${withKey}`, ...headers } });

/** Every header but those that differ between any two answers. */
function stableHeaders(response: Response): Record<string, string> {
  const varying = new Set([
    'x-request-id',
    'date',
    'ratelimit',
    'x-ratelimit-remaining',
    'x-credits-remaining',
  ]);
  return Object.fromEntries([...response.headers].filter(([name]) => !varying.has(name)));
}

describe('the immutable-read lane', () => {
  it('answers a kept version with the same body and headers as its route, and charges it', async () => {
    const path = '/api/files/lane.io/version/20250301';
    const routed = await get(path);
    const laned = await get(path);
    expect(routed.status).toBe(200);
    expect(laned.status).toBe(200);
    expect(await laned.text()).toBe(await routed.text());
    expect(stableHeaders(laned)).toEqual(stableHeaders(routed));
    expect(laned.headers.get('etag')).toMatch(/^".+"$/);
    expect(laned.headers.get('x-request-id')).not.toBe(routed.headers.get('x-request-id'));
    const credits = (response: Response) => Number(response.headers.get('x-credits-remaining'));
    expect(credits(laned)).toBe(credits(routed) - 1);

    // The route's answer was kept: rows deleted behind the API's back do not show.
    await transactions.query("DELETE FROM scrape_files WHERE company_slug = 'lane.io'");
    const kept = (await (await get(path)).json()) as { count: number };
    expect(kept.count).toBe(1);
    const revalidated = await get(path, { 'if-none-match': laned.headers.get('etag')! });
    expect(revalidated.status).toBe(304);
    // A 304 is not charged.
    expect(credits(revalidated)).toBe(credits(laned) - 1);
  });

  it('sends the kept bytes of a version from the lane, never asking its route again', async () => {
    await ingestAndProject(api, [
      records.company('bytes.io'),
      records.page('bytes.io'),
      records.scrape('bytes.io', '', '20250301'),
      records.pricing('bytes.io', '', '20250301'),
    ]);
    const paths = [
      '/api/files/bytes.io/version/20250301',
      '/api/pricing/bytes.io?version=20250301',
    ];
    const routed = await Promise.all(paths.map(async (path) => (await get(path)).text()));
    const remember = vi.spyOn(api.app.get(ImmutableReadCache), 'remember');
    try {
      const laned = await Promise.all(paths.map(async (path) => (await get(path)).text()));
      expect(laned).toEqual(routed);
      // The routes read their answers through remember(): the lane answered without them.
      expect(remember).not.toHaveBeenCalled();
    } finally {
      remember.mockRestore();
    }
  });

  it('keeps the answers of an ended period, files and pricing', async () => {
    await ingestAndProject(api, [
      records.company('period.io'),
      records.page('period.io'),
      records.scrape('period.io', '', '20250301'),
      records.pricing('period.io', '', '20250301'),
    ]);
    const paths = ['/api/files/period.io/quarter/2025Q1', '/api/pricing/period.io?period=2025Q1'];
    const routed = new Map<string, string>();
    for (const path of paths) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('cache-control'), path).toBe('private, max-age=3600');
      routed.set(path, await response.text());
    }
    await transactions.query("DELETE FROM scrape_files WHERE company_slug = 'period.io'");
    await transactions.query("DELETE FROM pricing_snapshots WHERE company_slug = 'period.io'");
    for (const path of paths) {
      const laned = await get(path);
      expect(laned.status, path).toBe(200);
      expect(await laned.text(), path).toBe(routed.get(path));
    }
  });

  it('refuses on the lane exactly as the guard does', async () => {
    const path = '/api/pricing/lane.io?version=20250301';
    expect((await get(path)).status).toBe(200);
    const anonymous = await api.request(path);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
    expect(((await anonymous.json()) as { code: string }).code).toBe('AUTH_INVALID');

    const freeKey = await api.createKey(['read'], 'free');
    const noPricing = await get(path, {}, freeKey);
    expect(noPricing.status).toBe(403);
    expect(((await noPricing.json()) as { code: string }).code).toBe('PLAN_REQUIRED');

    const ingestKey = await api.createKey(['ingest'], 'enterprise');
    const noScope = await get(path, {}, ingestKey);
    expect(noScope.status).toBe(403);
    expect(((await noScope.json()) as { code: string }).code).toBe('SCOPE_REQUIRED');
  });

  it('keeps a companies list only while the companies read model stands still', async () => {
    const path = '/api/companies?search=laneway';
    const names = async () =>
      ((await (await get(path)).json()) as { data: { slug: string }[] }).data.map(
        ({ slug }) => slug,
      );
    expect(await names()).toEqual(['lane.io']);
    // Behind the API's back: the kept list does not change.
    await transactions.query("UPDATE companies SET name = 'Elsewhere' WHERE slug = 'lane.io'");
    expect(await names()).toEqual(['lane.io']);
    // A projected company moves the checkpoint: the next list is read afresh.
    await ingestAndProject(api, [records.company('laneway2.io', { name: 'Laneway Two' })]);
    expect(await names()).toEqual(['laneway2.io']);
  });

  it('keeps a company by slug until the companies or pages read model moves', async () => {
    const path = '/api/companies/lane.io?include=pages';
    const pages = async () =>
      ((await (await get(path)).json()) as { pages: unknown[] }).pages.length;
    expect(await pages()).toBe(1);
    await ingestAndProject(api, [records.page('lane.io', 'team')]);
    expect(await pages()).toBe(2);
  });

  // On SQLite a route reads its file without yielding to the event loop, so the first read is
  // answered before the others arrive; on PostgreSQL they wait for it.
  it('sends one of concurrent first reads to its route, and the others what it kept', async () => {
    const reader = api.app.get(CompanyReader);
    // The search keeps the ids of its few matches, so its route reads the page by id.
    const readPage = reader.byIds.bind(reader);
    let routed = 0;
    reader.byIds = (ids) => ((routed += 1), readPage(ids));
    const path = '/api/companies?search=lane&limit=7';
    try {
      const answers = await Promise.all(Array.from({ length: 8 }, () => get(path)));
      expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
      const bodies = new Set(await Promise.all(answers.map((answer) => answer.text())));
      expect(bodies.size).toBe(1);
      expect(routed).toBe(1);
      // Kept: the next read does not go to the route either.
      expect((await get(path)).status).toBe(200);
      expect(routed).toBe(1);
    } finally {
      reader.byIds = readPage;
    }
  });
});
