import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES } from '#app/domain';
import {
  getJson,
  ingestAndProject,
  type CodedErrorBody,
  type GeneralErrorBody,
} from './support/catalogue-fixture.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/**
 * Free discovery (docs/API.md, "Files", "Pricing", "Companies and categories"): the categories with their companies, the scrape versions
 * of a company or page, and the versions of a page that have an extraction. A key is needed and
 * the plan must have the family's feature, but no call is charged nor counted in the window.
 */

const PLANS = {
  // Cheapest first: a 403 names the first plan that has the feature.
  pages: { requests_per_hour: 1_000, credits_per_month: 1_000, features: ['pages'] },
  free: {
    requests_per_hour: 1_000,
    credits_per_month: 1_000,
    features: ['companies', 'pages', 'files'],
  },
  pro: {
    requests_per_hour: 1_000,
    credits_per_month: 1_000,
    features: ['companies', 'pages', 'files', 'pricing'],
  },
  enterprise: {
    requests_per_hour: 10_000,
    credits_per_month: 100_000,
    features: ['companies', 'pages', 'files', 'pricing', 'webhooks'],
  },
};
const plansFile = join(mkdtempSync(join(tmpdir(), 'discovery-plans-')), 'plans.json');
writeFileSync(plansFile, JSON.stringify(PLANS));

const environment = testEnvironment({ PLANS_FILE: plansFile });
let api: TestApp;

interface Usage {
  hourly: { used: number };
  credits: { used: number };
}

interface VersionsBody {
  versions: string[];
  count: number;
  latest_version: string | null;
}

beforeAll(async () => {
  api = await startTestApp(environment.config());
  const scrape = (company: string, page: string, version: string, scraper = 'scraper_1') =>
    records.scrape(company, page, version, { scraper });
  await ingestAndProject(api, [
    records.company('lumen.io', { category: 'Development' }),
    records.company('quill.app', { category: 'Development' }),
    records.company('tally.co', { category: 'Finance' }),
    records.company('bare.io', { category: 'HR' }),
    records.page('lumen.io'),
    records.page('lumen.io', 'enterprise'),
    records.page('quill.app', 'a-team'),
    records.page('quill.app', 'b-team'),
    records.page('bare.io'),
    // Not in version order, with two scrapers of one version and a version on two pages.
    scrape('lumen.io', '', '20250310'),
    scrape('lumen.io', '', '20250105', 'scraper_2'),
    scrape('lumen.io', '', '20250105', 'scraper_1'),
    scrape('lumen.io', 'enterprise', '20250215'),
    scrape('lumen.io', 'enterprise', '20250310'),
    scrape('lumen.io', '', '20250420'),
    records.pricing('lumen.io', '', '20250420', 12),
    records.pricing('lumen.io', '', '20250105', 10),
    records.pricing('lumen.io', 'enterprise', '20250215', 30),
  ]);
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

async function usageOf(key: string): Promise<{ hourly: number; credits: number }> {
  const response = await getJson<Usage>(api, '/api/usage', key);
  expect(response.status).toBe(200);
  return { hourly: response.body.hourly.used, credits: response.body.credits.used };
}

describe('GET /api/categories', () => {
  it('lists all eight categories in their fixed order, with their companies', async () => {
    const key = await api.createKey(['read'], 'free');
    const { status, body } = await getJson(api, '/api/categories', key);
    expect(status).toBe(200);
    const counts: Record<string, number> = { Development: 2, Finance: 1, HR: 1 };
    expect(body).toEqual({
      categories: CATEGORIES.map((category) => ({ category, companies: counts[category] ?? 0 })),
      total_companies: 4,
    });
  });

  it('needs a key, and a plan with companies', async () => {
    const missing = await getJson<GeneralErrorBody>(api, '/api/categories', null);
    expect(missing.status).toBe(401);
    expect(missing.body.error).toBe('Unauthorized');
    const refused = await getJson<GeneralErrorBody>(
      api,
      '/api/categories',
      await api.createKey(['read'], 'pages'),
    );
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      error: 'Forbidden',
      details: { required_plan: 'free', current_plan: 'pages' },
    });
  });
});

describe('GET /api/files/{slug}/versions', () => {
  it("gives a company's scrape versions over all its pages, oldest first, each once", async () => {
    const key = await api.createKey(['read'], 'free');
    for (const slug of ['lumen.io', 'lumen']) {
      const { status, body } = await getJson(api, `/api/files/${slug}/versions`, key);
      expect(status, slug).toBe(200);
      expect(body, slug).toEqual({
        company_slug: 'lumen.io',
        pages: ['lumen', 'lumen.enterprise'],
        versions: ['20250105', '20250215', '20250310', '20250420'],
        count: 4,
        latest_version: '20250420',
      });
    }
  });

  it("gives a composite slug its page's versions only", async () => {
    const key = await api.createKey(['read'], 'free');
    const { status, body } = await getJson(api, '/api/files/lumen.enterprise/versions', key);
    expect(status).toBe(200);
    expect(body).toEqual({
      company_slug: 'lumen.io',
      pages: ['lumen.enterprise'],
      versions: ['20250215', '20250310'],
      count: 2,
      latest_version: '20250310',
    });
  });

  it('gives an empty list for a company without scrapes, several pages or none', async () => {
    const key = await api.createKey(['read'], 'free');
    const quill = await getJson<VersionsBody>(api, '/api/files/quill/versions', key);
    expect(quill.status).toBe(200);
    expect(quill.body).toMatchObject({ versions: [], count: 0, latest_version: null });
    const tally = await getJson(api, '/api/files/tally.co/versions', key);
    expect(tally.body).toEqual({
      company_slug: 'tally.co',
      pages: [],
      versions: [],
      count: 0,
      latest_version: null,
    });
  });

  it('answers an unknown slug as the files routes do: 404 NOT_FOUND, coded', async () => {
    const key = await api.createKey(['read'], 'free');
    for (const slug of ['nowhere.io', 'lumen.missing']) {
      const versions = await getJson<CodedErrorBody>(api, `/api/files/${slug}/versions`, key);
      const files = await getJson<CodedErrorBody>(api, `/api/files/${slug}/version/20250105`, key);
      expect(versions.status, slug).toBe(404);
      expect(versions.body, slug).toEqual(files.body);
      expect(versions.body.code, slug).toBe('NOT_FOUND');
    }
  });

  it('needs a plan with files (403 in the coded shape)', async () => {
    const refused = await getJson<CodedErrorBody>(
      api,
      '/api/files/lumen.io/versions',
      await api.createKey(['read'], 'pages'),
    );
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('PLAN_REQUIRED');
    expect(refused.body.details).toMatchObject({ required_plan: 'free', current_plan: 'pages' });
  });
});

describe('GET /api/pricing/{slug}/versions', () => {
  it('gives the versions that have an extraction, oldest first', async () => {
    const key = await api.createKey(['read'], 'pro');
    const { status, body } = await getJson(api, '/api/pricing/lumen/versions', key);
    expect(status).toBe(200);
    expect(body).toEqual({
      slug: 'lumen',
      company_slug: 'lumen.io',
      page_subslug: '',
      versions: ['20250105', '20250420'],
      count: 2,
      latest_version: '20250420',
    });
    const page = await getJson(api, '/api/pricing/lumen.enterprise/versions', key);
    expect(page.body).toMatchObject({
      slug: 'lumen.enterprise',
      page_subslug: 'enterprise',
      versions: ['20250215'],
    });
  });

  it('gives an empty list for a page without an extraction', async () => {
    const key = await api.createKey(['read'], 'pro');
    const { status, body } = await getJson(api, '/api/pricing/bare.io/versions', key);
    expect(status).toBe(200);
    expect(body).toMatchObject({ versions: [], count: 0, latest_version: null });
  });

  it('answers as GET /api/pricing/{slug} does: 404 NOT_FOUND, 400 PAGE_REQUIRED', async () => {
    const key = await api.createKey(['read'], 'pro');
    for (const slug of ['nowhere.io', 'lumen.missing', 'quill.app']) {
      const versions = await getJson<CodedErrorBody>(api, `/api/pricing/${slug}/versions`, key);
      const pricing = await getJson<CodedErrorBody>(api, `/api/pricing/${slug}`, key);
      expect(versions.status, slug).toBe(pricing.status);
      expect(versions.body, slug).toEqual(pricing.body);
    }
    const required = await getJson<CodedErrorBody>(api, '/api/pricing/quill/versions', key);
    expect(required.status).toBe(400);
    expect(required.body.code).toBe('PAGE_REQUIRED');
  });

  it('needs a plan with pricing', async () => {
    const refused = await getJson<CodedErrorBody>(
      api,
      '/api/pricing/lumen/versions',
      await api.createKey(['read'], 'free'),
    );
    expect(refused.status).toBe(403);
    expect(refused.body.details).toMatchObject({ required_plan: 'pro', current_plan: 'free' });
  });
});

describe('what discovery costs', () => {
  it('charges no credit and counts nothing in the window; a read next to it is charged', async () => {
    const key = await api.createKey(['read'], 'pro');
    const discovery = [
      '/api/categories',
      '/api/files/lumen/versions',
      '/api/files/lumen.enterprise/versions',
      '/api/pricing/lumen/versions',
      '/api/pricing/lumen.enterprise/versions',
    ];
    for (const path of discovery) {
      const response = await getJson(api, path, key);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('x-credits-remaining'), path).toBe('1000');
    }
    expect(await usageOf(key)).toEqual({ hourly: 0, credits: 0 });
    const read = await getJson(api, '/api/pricing/lumen', key);
    expect(read.status).toBe(200);
    expect(await usageOf(key)).toEqual({ hourly: 1, credits: 1 });
  });
});
