import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components, operations, PricingClient } from '#app/client';
import type { CompanyRecord } from '#app/contracts';
import {
  generalError,
  getJson,
  ingestAndProject,
  rebuildAndRead,
  ISO_TIMESTAMP,
  type GeneralErrorBody,
} from './support/catalogue-fixture.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

const environment = testEnvironment();
let api: TestApp;
let key: string;
let client: PricingClient;

type CompanyList = components['schemas']['CompanyList'];
type CompanyListQuery = NonNullable<operations['listCompanies']['parameters']['query']>;

const CATEGORIES = [
  'Communication',
  'Productivity',
  'Development',
  'Marketing',
  'Sales',
  'Customer Support',
  'Finance',
  'HR',
];

const company = (slug: string, name: string, category: string, employees: string): CompanyRecord =>
  records.company(slug, { name, category, employees });

const FILLERS = Array.from({ length: 22 }, (_, index) => {
  const number = String(index + 1).padStart(2, '0');
  return company(`filler-${number}.io`, `Filler ${number}`, 'HR', '1-10');
});

/** Registered one batch at a time, so their ids and created_at follow this order. */
const MARKETING_IN_REGISTRATION_ORDER = [
  company('theta.io', 'Theta', 'Marketing', '201-500'),
  company('gamma.io', 'Gamma', 'Marketing', '11-50'),
  company('kappa.io', 'Kappa', 'Marketing', '1000+'),
  company('lambda.io', 'Lambda', 'Marketing', '1-10'),
  company('iota.io', 'Iota', 'Marketing', '51-200'),
];

/** Same name: only the id can order them, and the one with the later slug is registered first. */
const TWINS_IN_REGISTRATION_ORDER = [
  company('twin-z.io', 'Twin', 'Communication', '51-200'),
  company('twin-a.io', 'Twin', 'Communication', '51-200'),
];

const TOTAL_COMPANIES = 11 + FILLERS.length + 5 + 2;

beforeAll(async () => {
  api = await startTestApp(environment.config());
  key = await api.createKey(['read']);
  client = api.client(key);
  await ingestAndProject(api, [
    company('acme.io', 'Acme', 'Productivity', '51-200'),
    company('beta.com', 'Beta Labs', 'Development', '1000+'),
    company('delta.ai', 'Delta 50% Off', 'Sales', '201-500'),
    company('route500.io', 'Route 500', 'Sales', '1000+'),
    company('epsilon.io', 'Epsilon_One', 'Finance', '1-10'),
    company('antony.fi', 'Antony', 'Finance', '11-50'),
    company('zeta-corp.io', 'Omega Systems', 'Customer Support', '51-200'),
    company('multi.io', 'Multi', 'Communication', '11-50'),
    company('solo.io', 'Solo', 'Communication', '1-10'),
    company('nopages.io', 'Nopages', 'Development', '11-50'),
    company('oelwerk.de', 'Ölwerk', 'Sales', '11-50'),
    ...FILLERS,
    records.page('acme.io'),
    records.page('acme.io', 'enterprise'),
    records.page('multi.io', 'team'),
    records.page('multi.io', 'business'),
    records.page('solo.io', 'enterprise'),
  ]);
  for (const record of [...MARKETING_IN_REGISTRATION_ORDER, ...TWINS_IN_REGISTRATION_ORDER]) {
    await ingestAndProject(api, [record]);
  }
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

/** A valid list query, typed by the document: the status and the documented answer. */
async function list(query: CompanyListQuery = {}) {
  const { data, response } = await client.GET('/v1/api/companies', { params: { query } });
  return { status: response.status, body: data! };
}

const getCompany = (slug: string, query: { include?: 'pages' } = {}) =>
  client.GET('/v1/api/companies/{slug}', { params: { path: { slug }, query } });
const getPage = (slug: string) =>
  client.GET('/v1/api/pages/{slug}', { params: { path: { slug } } });
const slugsOf = (body: CompanyList) => body.data.map((row) => row.slug);

async function expectBadRequest(path: string, parameter: string) {
  const response = await getJson<GeneralErrorBody>(api, path, key);
  expect(response.status, path).toBe(400);
  expect(response.body.error, path).toBe('Bad Request');
  expect(response.body.message, path).toBeTypeOf('string');
  expect(response.body.details?.parameter, path).toBe(parameter);
  return response.body;
}

describe('GET /api/companies', () => {
  it('lists the fields of 2.1 without updated_at, and a pagination object', async () => {
    const { status, body } = await list({ search: 'acme' });
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['data', 'pagination']);
    expect(body.data).toHaveLength(1);
    const [acme] = body.data;
    expect(Object.keys(acme!).sort()).toEqual([
      'category',
      'created_at',
      'employees',
      'id',
      'name',
      'slug',
      'url',
    ]);
    expect(acme).toMatchObject({
      name: 'Acme',
      slug: 'acme.io',
      category: 'Productivity',
      employees: '51-200',
      url: 'https://acme.io',
    });
    expect(Number.isInteger(acme!.id)).toBe(true);
    expect(acme!.created_at).toMatch(ISO_TIMESTAMP);
    expect(body.pagination).toEqual({ total: 1, page: 1, limit: 20, has_more: false });
  });

  it('defaults to 20 a page and page 1, and pages through every company once', async () => {
    const first = await list();
    expect(first.body.pagination).toEqual({
      total: TOTAL_COMPANIES,
      page: 1,
      limit: 20,
      has_more: true,
    });
    expect(first.body.data).toHaveLength(20);
    const second = await list({ page: 2 });
    expect(second.body.pagination).toEqual({
      total: TOTAL_COMPANIES,
      page: 2,
      limit: 20,
      has_more: false,
    });
    expect(second.body.data).toHaveLength(TOTAL_COMPANIES - 20);
    const all = [...slugsOf(first.body), ...slugsOf(second.body)];
    expect(new Set(all).size).toBe(TOTAL_COMPANIES);
    expect(slugsOf((await list({ page: 1, limit: 20 })).body)).toEqual(slugsOf(first.body));
  });

  it('takes limit from 1 to 100', async () => {
    const one = await list({ limit: 1 });
    expect(one.status).toBe(200);
    expect(one.body.data).toHaveLength(1);
    expect(one.body.pagination).toMatchObject({ limit: 1, has_more: true });
    const hundred = await list({ limit: 100 });
    expect(hundred.body.data).toHaveLength(TOTAL_COMPANIES);
    expect(hundred.body.pagination).toMatchObject({ limit: 100, has_more: false });
    const exact = await list({ limit: TOTAL_COMPANIES });
    expect(exact.body.pagination.has_more).toBe(false);
    const short = await list({ limit: TOTAL_COMPANIES - 1 });
    expect(short.body.pagination.has_more).toBe(true);
  });

  it.each(['0', '101', 'abc', '1.5', '-1', '1e1'])(
    'refuses limit=%s with parameter, provided and expected or max',
    async (value) => {
      const body = await expectBadRequest(`/api/companies?limit=${value}`, 'limit');
      expect(body.details?.provided).toBe(value);
      expect(body.details?.expected ?? body.details?.max).toBeDefined();
    },
  );

  it('reports the maximum when limit is above 100', async () => {
    const body = await expectBadRequest('/api/companies?limit=101', 'limit');
    expect(JSON.stringify([body.details?.max, body.details?.expected])).toContain('100');
  });

  it.each(['0', '-1', 'abc', '2.5'])('refuses page=%s', async (value) => {
    const body = await expectBadRequest(`/api/companies?page=${value}`, 'page');
    expect(body.details?.provided).toBe(value);
  });

  it('answers a page past the end with no rows', async () => {
    const { status, body } = await list({ page: 3 });
    expect(status).toBe(200);
    expect(body.data).toEqual([]);
    expect(body.pagination).toEqual({
      total: TOTAL_COMPANIES,
      page: 3,
      limit: 20,
      has_more: false,
    });
    for (const page of ['1000000000', '9007199254740991']) {
      const far = await list({ page: Number(page), limit: 100 });
      expect(far.status, page).toBe(200);
      expect(far.body.data, page).toEqual([]);
      expect(far.body.pagination, page).toMatchObject({ page: Number(page), has_more: false });
    }
  });

  it('searches a case-insensitive substring of the name or the slug', async () => {
    expect(slugsOf((await list({ search: 'ACM' })).body)).toEqual(['acme.io']);
    expect(slugsOf((await list({ search: 'systems' })).body)).toEqual(['zeta-corp.io']);
    expect(slugsOf((await list({ search: 'ZETA' })).body)).toEqual(['zeta-corp.io']);
    expect(slugsOf((await list({ search: 'labs' })).body)).toEqual(['beta.com']);
    const none = await list({ search: 'no-such-company' });
    expect(none.body.data).toEqual([]);
    expect(none.body.pagination.total).toBe(0);
  });

  it('reads % and _ in a search literally', async () => {
    expect(slugsOf((await list({ search: '50%' })).body)).toEqual(['delta.ai']);
    expect(slugsOf((await list({ search: 'n_o' })).body)).toEqual(['epsilon.io']);
    expect(slugsOf((await list({ search: '%' })).body)).toEqual(['delta.ai']);
    const backslash = await list({ search: '\\' });
    expect(backslash.status).toBe(200);
    expect(backslash.body.data).toEqual([]);
  });

  it('matches letters beyond ASCII case-insensitively too', async () => {
    for (const search of ['Ölwerk', 'ölwerk', 'ÖLWERK']) {
      const { status, body } = await list({ search });
      expect(status, search).toBe(200);
      expect(slugsOf(body), search).toEqual(['oelwerk.de']);
    }
  });

  it('filters by category, case-insensitively', async () => {
    expect(slugsOf((await list({ category: 'finance' })).body).sort()).toEqual([
      'antony.fi',
      'epsilon.io',
    ]);
    expect(slugsOf((await list({ category: 'CUSTOMER SUPPORT' })).body)).toEqual(['zeta-corp.io']);
    const hr = await list({ category: 'hr', limit: 100 });
    expect(hr.body.pagination.total).toBe(FILLERS.length);
    expect(hr.body.data.every((row) => row.category === 'HR')).toBe(true);
  });

  it('refuses an unknown category with the eight valid values', async () => {
    const body = await expectBadRequest('/api/companies?category=Gardening', 'category');
    expect(body.details?.provided).toBe('Gardening');
    expect([...(body.details?.valid_values as string[])].sort()).toEqual([...CATEGORIES].sort());
  });

  it('filters by an exact size band, with + encoded as %2B', async () => {
    expect(slugsOf((await list({ employees: '1000+' })).body).sort()).toEqual([
      'beta.com',
      'kappa.io',
      'route500.io',
    ]);
    expect(slugsOf((await list({ employees: '51-200' })).body).sort()).toEqual([
      'acme.io',
      'iota.io',
      'twin-a.io',
      'twin-z.io',
      'zeta-corp.io',
    ]);
    expect((await list({ employees: '5001-10000' })).body.data).toEqual([]);
  });

  it.each(['lots', '1000', '200-51', '1000%2B%2B', '51 - 200'])(
    'refuses employees=%s, which is not a band',
    async (value) => {
      await expectBadRequest(`/api/companies?employees=${value}`, 'employees');
    },
  );

  it('combines the filters: all must match', async () => {
    expect(slugsOf((await list({ category: 'Development', employees: '1000+' })).body)).toEqual([
      'beta.com',
    ]);
    expect(slugsOf((await list({ category: 'sales', employees: '1000+' })).body)).toEqual([
      'route500.io',
    ]);
    const three = await list({ search: 'o', category: 'Finance', employees: '11-50' });
    expect(slugsOf(three.body)).toEqual(['antony.fi']);
    expect(three.body.pagination.total).toBe(1);
    expect(
      (await list({ category: 'Marketing', employees: '1000+', search: 'gamma' })).body.data,
    ).toEqual([]);
    const paged = await list({ category: 'Marketing', limit: 2, page: 2 });
    expect(paged.body.pagination).toEqual({ total: 5, page: 2, limit: 2, has_more: true });
    expect(slugsOf(paged.body)).toEqual(['kappa.io', 'lambda.io']);
  });

  it('refuses a repeated parameter', async () => {
    await expectBadRequest('/api/companies?limit=1&limit=2', 'limit');
    await expectBadRequest('/api/companies?category=HR&category=Sales', 'category');
  });
});

describe('sorting the companies list', () => {
  const names = async (sort: string) =>
    (await list({ category: 'Marketing', ...(sort ? { sort } : {}) })).body.data.map(
      (row) => row.name,
    );
  const byName = ['Gamma', 'Iota', 'Kappa', 'Lambda', 'Theta'];
  const byEmployees = ['Lambda', 'Gamma', 'Iota', 'Theta', 'Kappa'];
  const byRegistration = MARKETING_IN_REGISTRATION_ORDER.map((record) => record.name);

  it('sorts by name ascending by default', async () => {
    expect(await names('')).toEqual(byName);
    expect(await names('name')).toEqual(byName);
    expect(await names('name:asc')).toEqual(byName);
  });

  it('sorts descending with a leading minus or :desc', async () => {
    expect(await names('-name')).toEqual([...byName].reverse());
    expect(await names('name:desc')).toEqual([...byName].reverse());
  });

  it('sorts size bands by their lower bound, not as text', async () => {
    expect(await names('employees')).toEqual(byEmployees);
    expect(await names('employees:desc')).toEqual([...byEmployees].reverse());
    const all = (await list({ sort: 'employees', limit: 100 })).body.data;
    const lower = (band: string) => Number(/^\d+/.exec(band)?.[0]);
    for (let i = 1; i < all.length; i += 1) {
      const [previous, current] = [all[i - 1]!, all[i]!];
      expect(lower(previous.employees)).toBeLessThanOrEqual(lower(current.employees));
      if (previous.employees === current.employees) {
        expect(previous.id).toBeLessThan(current.id);
      }
    }
    const bands = all.map((row) => row.employees);
    expect(bands.lastIndexOf('51-200')).toBeLessThan(bands.indexOf('1000+'));
  });

  it('sorts by created_at, and by slug and category', async () => {
    expect(await names('created_at')).toEqual(byRegistration);
    expect(await names('-created_at')).toEqual([...byRegistration].reverse());
    const rows = (await list({ category: 'Marketing', sort: 'created_at' })).body.data;
    const times = rows.map((row) => row.created_at);
    expect(times).toEqual([...times].sort());
    expect(slugsOf((await list({ search: 'twin', sort: 'slug' })).body)).toEqual([
      'twin-a.io',
      'twin-z.io',
    ]);
    const categories = (await list({ sort: 'category:desc', limit: 100 })).body.data.map(
      (row) => row.category,
    );
    expect(categories).toEqual([...categories].sort().reverse());
  });

  it('breaks ties by id', async () => {
    const twins = (await list({ search: 'twin' })).body.data;
    expect(twins.map((row) => row.slug)).toEqual(['twin-z.io', 'twin-a.io']);
    expect(twins[0]!.id).toBeLessThan(twins[1]!.id);
  });

  it.each(['bogus', '-name:asc', 'name:up', 'Name', 'name,slug', 'url'])(
    'refuses sort=%s with parameter, provided and expected',
    async (value) => {
      const body = await expectBadRequest(
        `/api/companies?sort=${encodeURIComponent(value)}`,
        'sort',
      );
      expect(body.details?.provided).toBe(value);
      expect(body.details?.expected).toBeTypeOf('string');
    },
  );
});

describe('GET /api/companies/{slug}', () => {
  it('answers one company with the fields of 2.1 including updated_at', async () => {
    const { data: body, response } = await getCompany('acme.io');
    expect(response.status).toBe(200);
    expect(Object.keys(body!).sort()).toEqual([
      'category',
      'created_at',
      'employees',
      'id',
      'name',
      'slug',
      'updated_at',
      'url',
    ]);
    expect(body).toMatchObject({ slug: 'acme.io', name: 'Acme', category: 'Productivity' });
    expect(body!.updated_at).toMatch(ISO_TIMESTAMP);
    const listed = (await list({ search: 'acme' })).body.data[0]!;
    expect({ ...body, updated_at: undefined }).toEqual({ ...listed, updated_at: undefined });
  });

  it('answers 404 for an unknown slug, suggesting the closest slug for a typo', async () => {
    const { error: refused, response } = await getCompany('acem.io');
    expect(response.status).toBe(404);
    const error = generalError(refused);
    expect(error.error).toBe('Not Found');
    expect(error.message).toBeTypeOf('string');
    expect(error.details).toEqual({ slug: 'acem.io', suggestion: 'acme.io' });
    const other = await getCompany('multi.oi');
    expect(generalError(other.error).details?.suggestion).toBe('multi.io');
  });

  it('suggests the closest slug when the typo swaps letters near the start', async () => {
    const { error: refused, response } = await getCompany('amce.io');
    expect(response.status).toBe(404);
    const error = generalError(refused);
    expect(error.details).toEqual({ slug: 'amce.io', suggestion: 'acme.io' });
  });

  it('answers 404 with a hint to search when no slug is close', async () => {
    const { error: refused, response } = await getCompany('quite-unlike-anything.xyz');
    expect(response.status).toBe(404);
    const error = generalError(refused);
    expect(error.error).toBe('Not Found');
    expect(error.details?.slug).toBe('quite-unlike-anything.xyz');
    expect(error.details?.suggestion).toEqual(expect.stringContaining('?search='));
  });

  it('adds the page references with ?include=pages', async () => {
    const { data: body, response } = await getCompany('acme.io', { include: 'pages' });
    expect(response.status).toBe(200);
    expect(body!.updated_at).toMatch(ISO_TIMESTAMP);
    expect(body!.pages).toEqual([
      {
        company_slug: 'acme.io',
        page_slug: '',
        company_name: 'Acme',
        pricing_page_url: 'https://acme.io/pricing',
      },
      {
        company_slug: 'acme.io',
        page_slug: 'enterprise',
        company_name: 'Acme',
        pricing_page_url: 'https://acme.io/pricing/enterprise',
      },
    ]);
    const without = await getCompany('acme.io');
    expect(without.data).not.toHaveProperty('pages');
    const none = await getCompany('nopages.io', { include: 'pages' });
    expect(none.data!.pages).toEqual([]);
  });

  it('refuses include with any other value', async () => {
    const body = await expectBadRequest('/api/companies/acme.io?include=other', 'include');
    expect(body.details?.provided).toBe('other');
  });
});

describe('GET /api/pages/{slug}', () => {
  const acmePrimary: components['schemas']['PageReference'] = {
    company_slug: 'acme.io',
    page_slug: '',
    company_name: 'Acme',
    pricing_page_url: 'https://acme.io/pricing',
  };

  it('takes the full company slug or the slug without its extension: the primary page', async () => {
    for (const slug of ['acme.io', 'acme']) {
      const { data, response } = await getPage(slug);
      expect(response.status, slug).toBe(200);
      expect(data, slug).toEqual(acmePrimary);
    }
  });

  it('takes a composite slug', async () => {
    const { data, response } = await getPage('acme.enterprise');
    expect(response.status).toBe(200);
    expect(data).toEqual({
      company_slug: 'acme.io',
      page_slug: 'enterprise',
      company_name: 'Acme',
      pricing_page_url: 'https://acme.io/pricing/enterprise',
    });
  });

  it('answers 400 PAGE_REQUIRED with the composite slugs for several pages and no primary', async () => {
    for (const slug of ['multi.io', 'multi']) {
      const { error: refused, response } = await getPage(slug);
      expect(response.status, slug).toBe(400);
      const error = generalError(refused);
      expect(error.error, slug).toBe('Bad Request');
      expect([...error.details!.pages!].sort(), slug).toEqual(['multi.business', 'multi.team']);
    }
    const team = await getPage('multi.team');
    expect(team.response.status).toBe(200);
    expect(team.data!.page_slug).toBe('team');
  });

  it('gives the only page of a company that has one non-primary page', async () => {
    for (const slug of ['solo.io', 'solo', 'solo.enterprise']) {
      const { data, response } = await getPage(slug);
      expect(response.status, slug).toBe(200);
      expect(data, slug).toEqual({
        company_slug: 'solo.io',
        page_slug: 'enterprise',
        company_name: 'Solo',
        pricing_page_url: 'https://solo.io/pricing/enterprise',
      });
    }
  });

  it('answers 404 for an unknown slug or a company without pages', async () => {
    for (const slug of ['nowhere.io', 'acme.missing', 'nopages.io', 'acme.io.enterprise']) {
      const { error: refused, response } = await getPage(slug);
      expect(response.status, slug).toBe(404);
      const error = generalError(refused);
      expect(error.error, slug).toBe('Not Found');
      expect(error.message, slug).toBeTypeOf('string');
    }
  });
});

describe('authentication and plans', () => {
  const malformed = 'Bearer not-a-key';
  const unknown = `Bearer pi_${'A'.repeat(43)}`;

  it.each([
    ['missing', {}],
    ['malformed', { authorization: malformed }],
    ['unknown', { authorization: unknown }],
    ['unknown X-API-Key', { 'x-api-key': `pi_${'B'.repeat(43)}` }],
  ] as [string, Record<string, string>][])(
    'answers 401 in the general shape for a %s key',
    async (_name, headers) => {
      for (const path of ['/api/companies', '/api/companies/acme.io', '/api/pages/acme']) {
        const { status, body } = await getJson<GeneralErrorBody>(api, path, null, headers);
        expect(status, path).toBe(401);
        expect(body.error, path).toBe('Unauthorized');
        expect(body.message, path).toBeTypeOf('string');
        expect(body.details?.hint, path).toBeTypeOf('string');
        expect(body, path).not.toHaveProperty('code');
      }
    },
  );

  it('accepts the key as Authorization: Bearer or as X-API-Key', async () => {
    const bearer = await list({ limit: 1 });
    expect(bearer.status).toBe(200);
    // Raw: the typed client sends its key as a bearer token only.
    const header = await getJson<CompanyList>(api, '/api/companies?limit=1', null, {
      'x-api-key': key,
    });
    expect(header.status).toBe(200);
    expect(header.body).toEqual(bearer.body);
  });

  it('answers 403 to a key without the read scope', async () => {
    const ingestOnly = api.client(await api.createKey(['ingest']));
    const answers = {
      companies: await ingestOnly.GET('/v1/api/companies'),
      company: await ingestOnly.GET('/v1/api/companies/{slug}', {
        params: { path: { slug: 'acme.io' } },
      }),
      page: await ingestOnly.GET('/v1/api/pages/{slug}', { params: { path: { slug: 'acme' } } }),
    };
    for (const [name, { error, response }] of Object.entries(answers)) {
      expect(response.status, name).toBe(403);
      expect(generalError(error).error, name).toBe('Forbidden');
      expect(generalError(error).message, name).toBeTypeOf('string');
    }
  });

  it('answers 403 to a free key on pricing, in the coded shape, naming the plan to buy', async () => {
    const acme = { params: { path: { slug: 'acme' } } };
    const free = api.client(await api.createKey(['read'], 'free'));
    const { error, response } = await free.GET('/v1/api/pricing/{slug}', acme);
    expect(response.status).toBe(403);
    expect(Object.keys(error!).sort()).toEqual(['code', 'details', 'error']);
    expect(error!.error).toBeTypeOf('string');
    expect(error!.code).toBeTypeOf('string');
    expect(error!.details).toMatchObject({ required_plan: 'pro', current_plan: 'free' });
    expect(error!.details).toHaveProperty('upgrade_url', expect.stringMatching(/^https?:\/\//));
    const pro = api.client(await api.createKey(['read'], 'pro'));
    expect((await pro.GET('/v1/api/pricing/{slug}', acme)).response.status).not.toBe(403);
  });

  it('lets a free key read companies, pages and files', async () => {
    const free = api.client(await api.createKey(['read'], 'free'));
    const answers = {
      companies: await free.GET('/v1/api/companies'),
      company: await free.GET('/v1/api/companies/{slug}', {
        params: { path: { slug: 'acme.io' } },
      }),
      page: await free.GET('/v1/api/pages/{slug}', { params: { path: { slug: 'acme' } } }),
      version: await free.GET('/v1/api/files/{slug}/version/{version}', {
        params: { path: { slug: 'acme.io', version: '20250101' } },
      }),
      period: await free.GET('/v1/api/files/{slug}/period/{period}', {
        params: { path: { slug: 'acme', period: '2025Q1' } },
      }),
    };
    for (const [name, { response }] of Object.entries(answers)) {
      expect(response.status, name).toBe(200);
    }
  });

  it('sends X-Request-Id on every response, echoing the one given', async () => {
    for (const [path, withKey] of [
      ['/api/companies', true],
      ['/api/companies?limit=0', true],
      ['/api/companies/nowhere.io', true],
      ['/api/companies', false],
    ] as [string, boolean][]) {
      const response = await getJson(api, path, withKey ? key : null);
      expect(response.headers.get('x-request-id'), path).toMatch(/^[0-9a-f-]{36}$/);
    }
    const echoed = await getJson(api, '/api/pages/acme', key, { 'x-request-id': 'trace-42' });
    expect(echoed.headers.get('x-request-id')).toBe('trace-42');
  });
});

describe('a rebuild of the read models', () => {
  it('leaves every answer as it was', async () => {
    const read = () =>
      Promise.all([
        list({ limit: 100 }).then(({ body }) => body),
        list({ sort: '-created_at', limit: 100 }).then(({ body }) => body),
        getCompany('acme.io', { include: 'pages' }).then(({ data }) => data),
        getPage('acme.enterprise').then(({ data }) => data),
        getPage('solo').then(({ data }) => data),
      ]);
    const before = await read();
    expect(await rebuildAndRead(api, read, before)).toEqual(before);
  });
});
