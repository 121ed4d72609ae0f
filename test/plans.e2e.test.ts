import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { operations } from '#app/client';
import type { ChargeInput, PlanInput } from '#app/contracts';
import {
  getJson,
  ingestAndProject,
  rebuildAndRead,
  type CodedErrorBody,
} from './support/catalogue-fixture.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

const environment = testEnvironment();
let api: TestApp;
let key: string;

type PlanSearchQuery = NonNullable<operations['searchPlans']['parameters']['query']>;

const charge = (overrides: Partial<ChargeInput> = {}): ChargeInput => ({
  billing: 'monthly_recurring_billed_monthly',
  currency: 'USD',
  price: 10,
  charge_type: 'per_unit',
  pricing_metric: null,
  display_name: 'Monthly',
  ...overrides,
});

const plan = (
  internalName: string,
  charges: ChargeInput[],
  overrides: Partial<PlanInput> = {},
): PlanInput => ({
  display_name: internalName.toUpperCase(),
  internal_name: internalName,
  add_on: false,
  charges,
  discounts: [],
  ...overrides,
});

const discount = (category: string) => ({
  discount_category: category,
  amount_type: 'percent',
  amount: 20,
  description: `${category} discount`,
  duration: '12 months',
});

const perUser = { display_name: 'per user', modality: 'user_based' };

/** alpha's primary page, latest first: the older two arrive after it and must change nothing. */
const ALPHA_LATEST = records.pricing('alpha.io', '', '20250301', 0, {
  plans: [
    plan('free', [charge({ billing: 'freemium', price: null, charge_type: 'flat' })]),
    plan(
      'pro',
      [
        charge({
          price: 12.5,
          pricing_metric: perUser,
          usage_type: 'licensed',
          display_name: 'Pro monthly',
        }),
      ],
      { discounts: [discount('annual')] },
    ),
    plan(
      'storage',
      [
        charge({
          currency: 'EUR',
          price: 0.5,
          charge_type: 'metered',
          pricing_metric: { display_name: 'per GB', modality: 'usage_based' },
          usage_type: 'pay_as_you_go',
        }),
      ],
      { add_on: true },
    ),
  ],
});
const ALPHA_OLDER = [
  records.pricing('alpha.io', '', '20250105', 99),
  records.pricing('alpha.io', '', '20250201', 98),
];
const ALPHA_ENTERPRISE = records.pricing('alpha.io', 'enterprise', '20250301', 0, {
  plans: [
    plan('enterprise', [
      charge({ billing: 'pricing_not_disclosed', price: null, charge_type: 'contact' }),
    ]),
  ],
});
const BETA = records.pricing('beta.com', '', '20250210', 0, {
  plans: [
    plan(
      'team',
      [
        charge({
          billing: 'annual_recurring_billed_yearly',
          currency: 'EUR',
          price: 120,
          pricing_metric: perUser,
          usage_type: 'licensed',
        }),
      ],
      { discounts: [discount('volume')] },
    ),
    plan('basic', [charge({ currency: 'EUR', price: 10, charge_type: 'flat' })]),
  ],
});
const GAMMA = records.pricing('gamma.dev', '', '20250115', 0, {
  plans: [
    plan('starter', [charge({ price: 0, charge_type: 'flat' })]),
    plan('scale', [
      charge({ price: 49, charge_type: 'flat', usage_type: 'subscription' }),
      charge({ billing: 'one_time', price: 500, charge_type: 'setup', display_name: 'Setup' }),
    ]),
  ],
});

beforeAll(async () => {
  api = await startTestApp(environment.config());
  key = await api.createKey(['read'], 'pro');
  const scrape = (company: string, pageSlug: string, version: string) =>
    records.scrape(company, pageSlug, version, {
      page_url: `https://${company}/pricing${pageSlug ? `/${pageSlug}` : ''}`,
    });
  await ingestAndProject(api, [
    records.company('alpha.io', { name: 'alpha Tools', category: 'Productivity' }),
    records.company('beta.com', { name: 'Beta', category: 'Finance', employees: '1000+' }),
    records.company('gamma.dev', { name: 'Gamma', category: 'Development', employees: '11-50' }),
    records.page('alpha.io'),
    records.page('alpha.io', 'enterprise'),
    records.page('beta.com'),
    records.page('gamma.dev'),
    scrape('alpha.io', '', '20250105'),
    scrape('alpha.io', '', '20250201'),
    scrape('alpha.io', '', '20250301'),
    scrape('alpha.io', 'enterprise', '20250301'),
    scrape('beta.com', '', '20250210'),
    scrape('gamma.dev', '', '20250115'),
    scrape('gamma.dev', '', '20250401'),
    ALPHA_LATEST,
    ALPHA_ENTERPRISE,
    BETA,
    GAMMA,
    // From February: gamma's extraction of January has no rate between USD and EUR.
    records.exchangeRate('20250201', { rate: 1.2 }),
    records.exchangeRate('20250205', { rate: 1.3 }),
  ]);
  // Older extractions of alpha's page, arriving after its latest.
  await ingestAndProject(api, ALPHA_OLDER);
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

/** A valid plan search, typed by the document. */
async function search(query: PlanSearchQuery = {}) {
  const { data, error, response } = await api.client(key).GET('/v1/api/plans', {
    params: { query },
  });
  return { status: response.status, headers: response.headers, body: data!, error };
}

/** `slug/internal_name` of each plan found, in order. */
async function found(query: PlanSearchQuery = {}): Promise<string[]> {
  const { status, body, error } = await search(query);
  expect(status, `${JSON.stringify(query)}: ${JSON.stringify(error)}`).toBe(200);
  return body.data.map((item) => `${item.slug}/${item.plan.internal_name}`);
}

/** Raw: what the document forbids (an unknown category, a malformed number...). */
async function expectCoded(query: string, code: string) {
  const { status, body: error } = await getJson<CodedErrorBody>(api, `/api/plans${query}`, key);
  expect(status, query).toBe(400);
  expect(Object.keys(error).sort(), query).toEqual(['code', 'details', 'error']);
  expect(error.code, query).toBe(code);
  return error.details!;
}

const BY_COMPANY = [
  'alpha/free',
  'alpha/pro',
  'alpha/storage',
  'alpha.enterprise/enterprise',
  'beta/basic',
  'beta/team',
  'gamma/scale',
  'gamma/starter',
];

describe('GET /api/plans', () => {
  it("lists every plan of each page's latest extraction, by company name without regard to case", async () => {
    const { status, body } = await search();
    expect(status).toBe(200);
    // "alpha Tools" before "Beta": a case-sensitive sort would put the capital first.
    expect(body.data.map((item) => `${item.slug}/${item.plan.internal_name}`)).toEqual(BY_COMPANY);
    expect(body.pagination).toEqual({ total: 8, page: 1, limit: 20, has_more: false });
  });

  it('gives each item its page and company, and the plan whole with monthly equivalents', async () => {
    const { body } = await search({ company: 'beta.com' });
    const [basic, team] = body.data;
    expect(Object.keys(team!)).toEqual([
      'company_slug',
      'company_name',
      'category',
      'slug',
      'version',
      'plan',
    ]);
    expect(team).toMatchObject({
      company_slug: 'beta.com',
      company_name: 'Beta',
      category: 'Finance',
      slug: 'beta',
      version: '20250210',
    });
    const pricing = await api.client(key).GET('/v1/api/pricing/{slug}', {
      params: { path: { slug: 'beta' }, query: { version: '20250210' } },
    });
    const stored = pricing.data!.plans.find((one) => one.internal_name === 'team')!;
    expect(team!.plan).toEqual({
      ...stored,
      charges: stored.charges.map((one) => ({ ...one, monthly_equivalent: 10 })),
    });
    expect(basic!.plan.charges[0]!.monthly_equivalent).toBe(10);
  });

  it('keeps the latest version when older extractions arrive after it', async () => {
    const { body } = await search({ company: 'alpha.io' });
    expect(body.data.map((item) => item.version)).toEqual([
      '20250301',
      '20250301',
      '20250301',
      '20250301',
    ]);
    expect(body.data.map((item) => item.plan.internal_name)).toEqual([
      'free',
      'pro',
      'storage',
      'enterprise',
    ]);
  });

  it('sorts by company name descending with ties still ascending', async () => {
    expect(await found({ sort: '-company' })).toEqual([
      'gamma/scale',
      'gamma/starter',
      'beta/basic',
      'beta/team',
      'alpha/free',
      'alpha/pro',
      'alpha/storage',
      'alpha.enterprise/enterprise',
    ]);
    expect(await found({ sort: 'company:desc' })).toEqual(await found({ sort: '-company' }));
    expect(await found({ sort: 'company' })).toEqual(BY_COMPANY);
  });

  it('sorts by the lowest monthly equivalent, plans without one last in both directions', async () => {
    expect(await found({ sort: 'monthly' })).toEqual([
      'alpha/free',
      'gamma/starter',
      'alpha/storage',
      'beta/basic',
      'beta/team',
      'alpha/pro',
      'gamma/scale',
      'alpha.enterprise/enterprise',
    ]);
    expect(await found({ sort: '-monthly' })).toEqual([
      'gamma/scale',
      'alpha/pro',
      'beta/basic',
      'beta/team',
      'alpha/storage',
      'alpha/free',
      'gamma/starter',
      'alpha.enterprise/enterprise',
    ]);
  });

  it.each<[PlanSearchQuery, string[]]>([
    [{ category: 'productivity' }, BY_COMPANY.slice(0, 4)],
    [{ category: 'Development,FINANCE' }, BY_COMPANY.slice(4)],
    [{ category: 'Customer Support' }, []],
    [{ employees: '51-200' }, BY_COMPANY.slice(0, 4)],
    [{ employees: '1000+,11-50' }, BY_COMPANY.slice(4)],
    [{ company: 'gamma.dev,beta.com' }, BY_COMPANY.slice(4)],
    [{ company: 'unknown.io' }, []],
    [
      { company: 'alpha.io,gamma.dev', charge_type: 'flat' },
      ['alpha/free', 'gamma/scale', 'gamma/starter'],
    ],
    [{ discount_category: 'annual' }, ['alpha/pro']],
    [{ discount_category: 'annual,volume' }, ['alpha/pro', 'beta/team']],
    [{ add_on: 'true' }, ['alpha/storage']],
    [{ add_on: 'false' }, BY_COMPANY.filter((one) => one !== 'alpha/storage')],
    [{ free_tier: 'true' }, ['alpha/free', 'gamma/starter']],
    [
      { free_tier: 'false' },
      BY_COMPANY.filter((one) => one !== 'alpha/free' && one !== 'gamma/starter'),
    ],
    [{ billing: 'freemium' }, ['alpha/free']],
    [{ billing: 'one_time,annual_recurring_billed_yearly' }, ['beta/team', 'gamma/scale']],
    [{ charge_type: 'flat' }, ['alpha/free', 'beta/basic', 'gamma/scale', 'gamma/starter']],
    [{ modality: 'user_based' }, ['alpha/pro', 'beta/team']],
    [{ modality: 'usage_based' }, ['alpha/storage']],
    [{ usage_type: 'pay_as_you_go' }, ['alpha/storage']],
    [{ usage_type: 'subscription' }, ['gamma/scale']],
    [{ price_currency: 'eur' }, ['alpha/storage', 'beta/basic', 'beta/team']],
    [{ min_monthly: 10 }, ['alpha/pro', 'beta/basic', 'beta/team', 'gamma/scale']],
    [{ max_monthly: 0.5 }, ['alpha/free', 'alpha/storage', 'gamma/starter']],
    [{ min_monthly: 10, max_monthly: 12.5 }, ['alpha/pro', 'beta/basic', 'beta/team']],
    [{ min_monthly: 0 }, BY_COMPANY.filter((one) => one !== 'alpha.enterprise/enterprise')],
    [{ min_plans: 3 }, BY_COMPANY.slice(0, 3)],
    [{ max_plans: 1 }, ['alpha.enterprise/enterprise']],
    [{ min_plans: 2, max_plans: 2 }, BY_COMPANY.slice(4)],
    [
      { category: 'Productivity', free_tier: 'false', sort: '-monthly' },
      ['alpha/pro', 'alpha/storage', 'alpha.enterprise/enterprise'],
    ],
  ])('filters %s', async (query, expected) => {
    expect(await found(query)).toEqual(expected);
  });

  it('holds every charge filter on one and the same charge', async () => {
    // gamma's scale plan has a flat monthly charge of 49 and a one-time setup fee.
    expect(await found({ billing: 'one_time', charge_type: 'setup' })).toEqual(['gamma/scale']);
    expect(await found({ billing: 'one_time', usage_type: 'subscription' })).toEqual([]);
    expect(await found({ billing: 'one_time', max_monthly: 1000 })).toEqual([]);
    expect(await found({ charge_type: 'flat', min_monthly: 40 })).toEqual(['gamma/scale']);
    expect(await found({ charge_type: 'setup', min_monthly: 0 })).toEqual([]);
  });

  it('pages with the exact total', async () => {
    const first = await search({ limit: 3 });
    expect(first.body.pagination).toEqual({ total: 8, page: 1, limit: 3, has_more: true });
    expect(first.body.data.map((item) => item.plan.internal_name)).toEqual([
      'free',
      'pro',
      'storage',
    ]);
    const last = await search({ limit: 3, page: 3 });
    expect(last.body.pagination).toEqual({ total: 8, page: 3, limit: 3, has_more: false });
    expect(last.body.data.map((item) => `${item.slug}/${item.plan.internal_name}`)).toEqual([
      'gamma/scale',
      'gamma/starter',
    ]);
    const past = await search({ limit: 3, page: 4 });
    expect(past.body).toEqual({
      data: [],
      pagination: { total: 8, page: 4, limit: 3, has_more: false },
    });
    // Raw: a decimal of 40 digits, which a number would send as 1e+40.
    const far = await getJson<{ data: unknown[] }>(
      api,
      `/api/plans?limit=100&page=${Number.MAX_SAFE_INTEGER}&min_monthly=${'9'.repeat(40)}`,
      key,
    );
    expect(far.status).toBe(200);
    expect(far.body.data).toEqual([]);
    const filtered = await search({ charge_type: 'flat', limit: 2, page: 2, sort: '-monthly' });
    expect(filtered.body.pagination).toEqual({ total: 4, page: 2, limit: 2, has_more: false });
    expect(filtered.body.data.map((item) => item.plan.internal_name)).toEqual(['free', 'starter']);
  });

  it('charges one credit', async () => {
    const before = await search();
    const after = await search({ category: 'finance' });
    expect(Number(after.headers.get('x-credits-remaining'))).toBe(
      Number(before.headers.get('x-credits-remaining')) - 1,
    );
  });

  it('needs the pricing feature', async () => {
    const free = await api.createKey(['read'], 'free');
    const { error, response } = await api.client(free).GET('/v1/api/plans');
    expect(response.status).toBe(403);
    expect(error!.code).toBe('PLAN_REQUIRED');
    expect(error!.details).toMatchObject({ required_plan: 'pro', current_plan: 'free' });
  });

  it('answers 400 INVALID_PARAMETER to an unknown category, with the valid values', async () => {
    const details = await expectCoded('?category=sales,Gardening', 'INVALID_PARAMETER');
    expect(details).toEqual({
      parameter: 'category',
      provided: 'Gardening',
      valid_values: [
        'Communication',
        'Productivity',
        'Development',
        'Marketing',
        'Sales',
        'Customer Support',
        'Finance',
        'HR',
      ],
    });
  });

  it.each([
    ['employees', 'lots', 'lots'],
    ['employees', '51-200,200-100', '200-100'],
    ['company', 'acme.io,Not A Slug', 'Not A Slug'],
    ['discount_category', 'Annual', 'Annual'],
    ['billing', 'monthly,Monthly', 'Monthly'],
    ['charge_type', 'per unit', 'per unit'],
    ['modality', '1st', '1st'],
    ['usage_type', 'pay-as-you-go', 'pay-as-you-go'],
    ['add_on', 'yes', 'yes'],
    ['free_tier', '1', '1'],
    ['min_monthly', 'ten', 'ten'],
    ['min_monthly', '-1', '-1'],
    ['max_monthly', '1e3', '1e3'],
    ['min_plans', '-1', '-1'],
    ['min_plans', '101', '101'],
    ['max_plans', '2.5', '2.5'],
    ['limit', '0', '0'],
    ['limit', '101', '101'],
    ['page', '0', '0'],
    ['sort', 'price', 'price'],
    ['sort', '-company:asc', '-company:asc'],
  ])('answers 400 INVALID_PARAMETER to %s=%s', async (parameter, value, provided) => {
    const details = await expectCoded(
      `?${parameter}=${encodeURIComponent(value)}`,
      'INVALID_PARAMETER',
    );
    expect(details).toMatchObject({ parameter, provided });
  });

  it.each([
    ['price_currency', 'USD,EURO', 'EURO'],
    ['currency', 'euro', 'euro'],
    ['currency', 'U$D', 'U$D'],
  ])('answers 400 INVALID_CURRENCY to %s=%s', async (parameter, value, provided) => {
    const details = await expectCoded(
      `?${parameter}=${encodeURIComponent(value)}`,
      'INVALID_CURRENCY',
    );
    expect(details).toEqual({ parameter, provided });
  });

  it('converts each charge of the plans found, as the pricing route does', async () => {
    const { body } = await search({ company: 'alpha.io,gamma.dev', currency: 'eur' });
    const pricing = await api.client(key).GET('/v1/api/pricing/{slug}', {
      params: { path: { slug: 'alpha' }, query: { currency: 'eur' } },
    });
    const alphaPro = body.data.find(
      (one) => one.slug === 'alpha' && one.plan.internal_name === 'pro',
    );
    expect(alphaPro!.plan).toEqual(pricing.data!.plans.find((one) => one.internal_name === 'pro'));
    expect(alphaPro!.plan.charges[0]!.converted).toEqual({
      currency: 'EUR',
      monthly_equivalent: 9.6154,
      rate: 1 / 1.3,
      rate_date: '20250205',
    });
    // gamma's extraction of January has no rate: converted null, never a guess.
    const gamma = body.data.filter((one) => one.slug === 'gamma');
    expect(gamma.flatMap((one) => one.plan.charges.map((charge) => charge.converted))).toEqual([
      null,
      null,
      null,
    ]);
    const inUsd = await search({ company: 'alpha.io', currency: 'USD' });
    expect(inUsd.body.data[1]!.plan.charges[0]!.converted).toEqual({
      currency: 'USD',
      monthly_equivalent: 12.5,
      rate: 1,
      rate_date: null,
    });
    const unconverted = await search({ company: 'alpha.io' });
    expect(unconverted.body.data[1]!.plan.charges[0]).not.toHaveProperty('converted');
  });

  it.each<[PlanSearchQuery, string[]]>([
    [
      { currency: 'usd', sort: 'monthly' },
      [
        'alpha/free',
        'gamma/starter',
        'alpha/storage',
        'alpha/pro',
        'beta/basic',
        'beta/team',
        'gamma/scale',
        'alpha.enterprise/enterprise',
      ],
    ],
    [
      { currency: 'USD', sort: '-monthly' },
      [
        'gamma/scale',
        'beta/basic',
        'beta/team',
        'alpha/pro',
        'alpha/storage',
        'alpha/free',
        'gamma/starter',
        'alpha.enterprise/enterprise',
      ],
    ],
    [
      // gamma's charges have no rate into EUR: last with the plan that has no monthly figure.
      { currency: 'EUR', sort: 'monthly' },
      [
        'alpha/free',
        'alpha/storage',
        'alpha/pro',
        'beta/basic',
        'beta/team',
        'alpha.enterprise/enterprise',
        'gamma/scale',
        'gamma/starter',
      ],
    ],
    [{ currency: 'USD', min_monthly: 12.6 }, ['beta/basic', 'beta/team', 'gamma/scale']],
    [{ min_monthly: 12.6 }, ['gamma/scale']],
    [{ currency: 'eur', min_monthly: 9.6, max_monthly: 9.7 }, ['alpha/pro']],
    [{ currency: 'EUR', sort: '-company', limit: 2 }, ['gamma/scale', 'gamma/starter']],
  ])('compares converted figures: %s', async (query, expected) => {
    expect(await found(query)).toEqual(expected);
  });

  it('never matches min_monthly or max_monthly with a charge that has no rate', async () => {
    const withinBounds = ['alpha/free', 'alpha/pro', 'alpha/storage', 'beta/basic', 'beta/team'];
    expect(await found({ currency: 'EUR', max_monthly: 100 })).toEqual(withinBounds);
    expect(await found({ currency: 'EUR', min_monthly: 0 })).toEqual(withinBounds);
    expect(await found({ currency: 'JPY', min_monthly: 0 })).toEqual([]);
    expect((await search({ currency: 'EUR', max_monthly: 100 })).body.pagination.total).toBe(5);
  });

  it('answers 400 INVALID_RANGE to a lower bound above the upper one', async () => {
    expect(await expectCoded('?min_plans=3&max_plans=2', 'INVALID_RANGE')).toEqual({
      parameter: 'min_plans',
      provided: '3',
      expected: 'at most max_plans (2)',
    });
    expect(await expectCoded('?min_monthly=20&max_monthly=10.5', 'INVALID_RANGE')).toEqual({
      parameter: 'min_monthly',
      provided: '20',
      expected: 'at most max_monthly (10.5)',
    });
  });

  it('follows a company profile change', async () => {
    await ingestAndProject(api, [
      records.company('beta.com', { name: 'aardvark Beta', category: 'Sales', employees: '1000+' }),
    ]);
    expect(await found()).toEqual([
      'beta/basic',
      'beta/team',
      ...BY_COMPANY.slice(0, 4),
      ...BY_COMPANY.slice(6),
    ]);
    expect(await found({ category: 'finance' })).toEqual([]);
    // Charge filters within the page filters read the charges' copy of the profile.
    expect(await found({ category: 'finance', charge_type: 'flat' })).toEqual([]);
    expect(await found({ category: 'sales', employees: '1000+', charge_type: 'flat' })).toEqual([
      'beta/basic',
    ]);
    const { body } = await search({ category: 'sales' });
    expect(body.data.map((item) => [item.company_name, item.category])).toEqual([
      ['aardvark Beta', 'Sales'],
      ['aardvark Beta', 'Sales'],
    ]);
  });

  it("replaces a page's plans with a newer extraction", async () => {
    await ingestAndProject(api, [
      records.pricing('gamma.dev', '', '20250401', 0, {
        plans: [plan('scale', [charge({ price: 59, charge_type: 'flat' })])],
      }),
    ]);
    const { body } = await search({ company: 'gamma.dev' });
    expect(body.data.map((item) => [item.version, item.plan.internal_name])).toEqual([
      ['20250401', 'scale'],
    ]);
    expect(await found({ max_plans: 1 })).toEqual(['alpha.enterprise/enterprise', 'gamma/scale']);
  });

  it('answers the same after the read models are rebuilt from the log', async () => {
    const read = async () => {
      const answers = [];
      for (const query of [
        {},
        { sort: '-monthly' },
        { min_plans: 2, charge_type: 'flat' },
        { currency: 'EUR', sort: 'monthly' },
      ]) {
        answers.push((await search(query)).body);
      }
      return answers;
    };
    const before = await read();
    expect(await rebuildAndRead(api, read, before)).toEqual(before);
  });
});
