import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransactionRunner } from '#app/persistence';
import { getJson, ingestAndProject } from './support/catalogue-fixture.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/**
 * Version-addressed answers come from the API process's cache for READ_CACHE_SECONDS; after
 * that the kept answer is sent once more while it is refreshed, and the next request gets the
 * fresh one. The tests change the read models behind the API's back (SQL), which the cache
 * cannot see, so what the API answers tells whether it read the database.
 */
const environment = testEnvironment({ READ_CACHE_SECONDS: '1' });
let api: TestApp;
let key: string;
let transactions: TransactionRunner;

const sleep = (ms: number) => new Promise<void>((next) => setTimeout(next, ms));

beforeAll(async () => {
  api = await startTestApp(environment.config());
  transactions = api.app.get(TransactionRunner);
  key = await api.createKey(['read'], 'enterprise');
  await ingestAndProject(api, [
    records.company('cached.io'),
    records.page('cached.io'),
    records.scrape('cached.io', '', '20250301'),
    records.pricing('cached.io', '', '20250301'),
  ]);
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

const files = (path: string) => getJson<{ count: number }>(api, path, key);

/**
 * Makes the cached answer of `path` a fresh one: an entry the fixture loaded earlier may have
 * expired already, and its background refresh could then run after the test's change.
 */
async function freshlyCached(path: string): Promise<void> {
  await sleep(1_100);
  await getJson(api, path, key);
  await sleep(200);
}

describe('the cache of version-addressed reads', () => {
  it('answers the files of a version from the cache until it expires', async () => {
    await freshlyCached('/api/files/cached/version/20250301');
    expect((await files('/api/files/cached/version/20250301')).body.count).toBe(1);
    await transactions.query("DELETE FROM scrape_files WHERE company_slug = 'cached.io'");
    expect((await files('/api/files/cached/version/20250301')).body.count).toBe(1);
    await sleep(1_100);
    // Expired: the kept answer once more while it is read again, then the fresh one.
    expect((await files('/api/files/cached/version/20250301')).body.count).toBe(1);
    await sleep(200);
    expect((await files('/api/files/cached/version/20250301')).body.count).toBe(0);
  });

  it('answers the pricing of a version from the cache, but never keeps a 404', async () => {
    const path = '/api/pricing/cached?version=20250301';
    await freshlyCached(path);
    expect((await getJson(api, path, key)).status).toBe(200);
    await transactions.query("DELETE FROM pricing_snapshots WHERE company_slug = 'cached.io'");
    expect((await getJson(api, path, key)).status).toBe(200);
    await sleep(1_100);
    expect((await getJson(api, path, key)).status).toBe(200);
    await sleep(200);
    expect((await getJson(api, path, key)).status).toBe(404);
    await ingestAndProject(api, [
      records.scrape('cached.io', '', '20250302'),
      records.pricing('cached.io', '', '20250302'),
    ]);
    expect((await getJson(api, '/api/pricing/cached?version=20250302', key)).status).toBe(200);
  });

  it('still meters and authenticates every answer served from the cache', async () => {
    const path = '/api/pricing/cached?version=20250302';
    const first = await api.request(path, { headers: { authorization: `Bearer ${key}` } });
    const second = await api.request(path, { headers: { authorization: `Bearer ${key}` } });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    const remaining = (response: Response) => Number(response.headers.get('x-credits-remaining'));
    expect(remaining(second)).toBe(remaining(first) - 1);
    const anonymous = await api.request(path);
    expect(anonymous.status).toBe(401);
  });
});
