import { Controller, Get, Module } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PricingSnapshotReader, TransactionRunner } from '#app/persistence';
import { KeyAccess } from '../apps/api/src/auth/api-key.guard.js';
import { CompaniesQueries } from '../apps/api/src/companies/companies.queries.js';
import { AdmissionModule } from '../apps/api/src/auth/admission.module.js';
import { ServedAheadOfNest } from '../apps/api/src/http/read-lane.js';
import { CreditCost } from '../apps/api/src/metering/credit-cost.decorator.js';
import { ingestAndProject } from './support/catalogue-fixture.js';
import { parsePrometheusText } from './support/prometheus-text.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';
import { waitFor } from './support/wait-for.js';

/**
 * The read lane ahead of Nest: a question (a route, its path parameters and the query
 * parameters it documents) whose answer a route has sent is answered again from an onRequest
 * hook while the read models it comes from stand still. What a client sees must not tell the
 * lane from the route, except that a change behind the API's back (SQL, which no checkpoint
 * sees) does not show while the answer is kept, which is how the tests know which answered.
 */

/** A lane route of credit cost 0: the lane must meter it as its route declares. */
let freeProbeCalls = 0;
@ApiExcludeController()
@Controller('api/free-probe')
@KeyAccess({ scope: 'read', feature: 'companies' })
@CreditCost(0)
class FreeProbeController {
  @Get()
  @ServedAheadOfNest(['companies'])
  probe() {
    freeProbeCalls += 1;
    return { free: true };
  }
}

@Module({ imports: [AdmissionModule], controllers: [FreeProbeController] })
class FreeProbeModule {}

/** A lane route that says nothing of who may call it: the lane would admit any key. */
@ApiExcludeController()
@Controller('api/open-probe')
class OpenProbeController {
  @Get()
  @ServedAheadOfNest(['companies'])
  probe() {
    return { open: true };
  }
}

@Module({ controllers: [OpenProbeController] })
class OpenProbeModule {}

const environment = testEnvironment();
let api: TestApp;
let key: string;
let transactions: TransactionRunner;

beforeAll(async () => {
  api = await startTestApp(environment.config(), { extraModules: [FreeProbeModule] });
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

const credits = (response: Response) => Number(response.headers.get('x-credits-remaining'));

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

/** How many answers the lane keeps, read from outside as an operator would. */
async function keptAnswers(): Promise<number> {
  const text = await (await fetch(`${api.baseUrl.replace(/\/v1$/, '')}/metrics`)).text();
  return parsePrometheusText(text).value('answer_cache_entries') ?? Number.NaN;
}

describe('the read lane', () => {
  it('answers a kept question with the same body and headers as its route, and charges it', async () => {
    const path = '/api/files/lane.io/version/20250301';
    const routed = await get(path);
    const laned = await get(path);
    expect(routed.status).toBe(200);
    expect(laned.status).toBe(200);
    expect(await laned.text()).toBe(await routed.text());
    expect(stableHeaders(laned)).toEqual(stableHeaders(routed));
    expect(laned.headers.get('etag')).toMatch(/^".+"$/);
    expect(laned.headers.get('x-request-id')).not.toBe(routed.headers.get('x-request-id'));
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

  it('lets a client keep a set of files a minute at most, and an extraction an hour', async () => {
    await ingestAndProject(api, [
      records.company('ages.io'),
      records.page('ages.io'),
      records.scrape('ages.io', '', '20250301'),
      records.pricing('ages.io', '', '20250301'),
    ]);
    const maxAges: Record<string, string> = {
      '/api/files/ages.io/version/20250301': 'private, max-age=60',
      '/api/files/ages.io/period/20250301': 'private, max-age=60',
      '/api/files/ages.io/quarter/2025Q1': 'private, max-age=60',
      '/api/pricing/ages.io?period=2025Q1': 'private, max-age=60',
      '/api/pricing/ages.io?version=20250301&currency=EUR': 'private, max-age=60',
      '/api/pricing/ages.io?version=20250301': 'private, max-age=3600',
      '/api/pricing/ages.io/diff?from=20250301&to=20250301': 'private, max-age=3600',
    };
    for (const [path, cacheControl] of Object.entries(maxAges)) {
      // The route's answer, then the lane's: both say the same.
      for (const answer of [await get(path), await get(path)]) {
        expect(answer.status, path).toBe(200);
        expect(answer.headers.get('cache-control'), path).toBe(cacheControl);
        expect(answer.headers.get('etag'), path).toMatch(/^".+"$/);
      }
    }
  });

  it("shows another scraper's file of a version as soon as it is projected, to a conditional request too", async () => {
    await ingestAndProject(api, [
      records.company('grows.io'),
      records.page('grows.io'),
      records.scrape('grows.io', '', '20250301', { scraper: 'scraper_1' }),
    ]);
    const paths = ['/api/files/grows.io/version/20250301', '/api/files/grows.io/quarter/2025Q1'];
    const first = new Map<string, string>();
    for (const path of paths) {
      const answer = await get(path);
      expect(((await answer.json()) as { count: number }).count, path).toBe(1);
      first.set(path, answer.headers.get('etag')!);
      // Kept by the lane, and still not modified.
      expect((await get(path, { 'if-none-match': first.get(path)! })).status, path).toBe(304);
    }
    const batch = await api.ingest([
      records.scrape('grows.io', '', '20250301', { scraper: 'scraper_2' }),
    ]);
    expect((await api.settled(batch)).counts.done).toBe(1);
    // Within 5 s of the batch being done, the old ETag no longer matches: the new set is sent.
    for (const path of paths) {
      const grown = await waitFor(
        `${path} to show the second file`,
        async () => {
          const answer = await get(path, { 'if-none-match': first.get(path)! });
          return answer.status === 200 ? answer : undefined;
        },
        5_000,
        100,
      );
      expect(((await grown.json()) as { count: number }).count, path).toBe(2);
      expect(grown.headers.get('etag'), path).not.toBe(first.get(path));
    }
  });

  it('keys an answer by the parameters its route reads: a cache-buster makes no entry and reaches no route', async () => {
    const path = '/api/pricing/lane.io?version=20250301';
    const plain = await (await get(path)).text();
    const before = await keptAnswers();
    const snapshots = api.app.get(PricingSnapshotReader);
    const find = snapshots.find.bind(snapshots);
    let routed = 0;
    snapshots.find = (...args) => ((routed += 1), find(...args));
    try {
      for (let i = 0; i < 50; i += 1) {
        const answer = await get(`${path}&_=${i}-${'x'.repeat(1_000)}`);
        expect(answer.status).toBe(200);
        expect(await answer.text()).toBe(plain);
      }
    } finally {
      snapshots.find = find;
    }
    expect(routed).toBe(0);
    expect(await keptAnswers()).toBe(before);
    // A parameter the route reads is part of the question.
    const converted = await get(`${path}&currency=EUR`);
    expect(converted.status).toBe(200);
    expect(await converted.text()).not.toBe(plain);
    expect(await keptAnswers()).toBe(before + 1);
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

  it('meters a lane route as the route declares it: a free one is never charged', async () => {
    const routed = await get('/api/free-probe');
    const laned = await get('/api/free-probe');
    expect([routed.status, laned.status]).toEqual([200, 200]);
    expect(freeProbeCalls).toBe(1);
    expect(credits(laned)).toBe(credits(routed));
    const usage = (await (await get('/api/usage')).json()) as { credits: { used: number } };
    const again = await get('/api/free-probe');
    expect(again.status).toBe(200);
    const after = (await (await get('/api/usage')).json()) as { credits: { used: number } };
    expect(after.credits.used).toBe(usage.credits.used);
  });

  it('refuses to start with a lane route that declares no access', async () => {
    const refused = testEnvironment();
    try {
      await expect(
        startTestApp(refused.config(), { withWorker: false, extraModules: [OpenProbeModule] }),
      ).rejects.toThrow('/v1/api/open-probe is served ahead of Nest but declares no KeyAccess');
    } finally {
      await refused.cleanup();
    }
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

  it('cuts every page of a search from its matches as the read model stands', async () => {
    await ingestAndProject(api, [
      records.company('pager-a.io', { name: 'Pager A' }),
      records.company('pager-b.io', { name: 'Pager B' }),
    ]);
    const page = async (number: number) =>
      (await (await get(`/api/companies?search=pager-&limit=1&page=${number}`)).json()) as {
        data: { slug: string }[];
        pagination: { total: number; has_more: boolean };
      };
    expect(await page(1)).toMatchObject({
      data: [{ slug: 'pager-a.io' }],
      pagination: { total: 2, has_more: true },
    });
    expect(await page(2)).toMatchObject({
      data: [{ slug: 'pager-b.io' }],
      pagination: { total: 2, has_more: false },
    });
    await ingestAndProject(api, [records.company('pager-c.io', { name: 'Pager C' })]);
    expect(await page(2)).toMatchObject({
      data: [{ slug: 'pager-b.io' }],
      pagination: { total: 3, has_more: true },
    });
    expect(await page(3)).toMatchObject({ data: [{ slug: 'pager-c.io' }] });
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
    const queries = api.app.get(CompaniesQueries);
    const list = queries.list.bind(queries);
    let routed = 0;
    queries.list = (...asked) => ((routed += 1), list(...asked));
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
      queries.list = list;
    }
  });
});

describe('an answer kept past READ_CACHE_SECONDS', () => {
  const shortLived = testEnvironment({ READ_CACHE_SECONDS: '1' });
  let short: TestApp;
  let shortKey: string;

  beforeAll(async () => {
    short = await startTestApp(shortLived.config());
    shortKey = await short.createKey(['read'], 'enterprise');
    await ingestAndProject(short, [
      records.company('short.io'),
      records.page('short.io'),
      records.scrape('short.io', '', '20250301'),
    ]);
  });

  afterAll(async () => {
    await short?.close();
    await shortLived.cleanup();
  });

  it('is read again: a change no checkpoint sees shows within that time', async () => {
    const path = '/api/files/short.io/version/20250301';
    const count = async () =>
      (
        (await (
          await short.request(path, { headers: { authorization: `Bearer ${shortKey}` } })
        ).json()) as { count: number }
      ).count;
    expect(await count()).toBe(1);
    await short.app
      .get(TransactionRunner)
      .query("DELETE FROM scrape_files WHERE company_slug = 'short.io'");
    expect(await count()).toBe(1);
    await waitFor('the kept answer to expire', async () =>
      (await count()) === 0 ? true : undefined,
    );
  });
});
