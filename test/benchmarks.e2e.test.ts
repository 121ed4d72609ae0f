import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { operations } from '#app/client';
import type { PricingRecord } from '#app/contracts';
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

type Plan = PricingRecord['plans'][number];
type Charge = Plan['charges'][number];

const charge = (
  billing: string,
  price: number | null,
  overrides: Partial<Charge> = {},
): Charge => ({
  billing,
  currency: 'USD',
  price,
  charge_type: 'metered',
  pricing_metric: { display_name: 'per user', modality: 'user_based' },
  usage_type: 'licensed',
  display_name: `${billing} ${price}`,
  ...overrides,
});
const plan = (internalName: string, charges: Charge[], addOn = false): Plan => ({
  display_name: internalName,
  internal_name: internalName,
  add_on: addOn,
  charges,
  discounts: [],
});
const MONTHLY = 'monthly_recurring_billed_monthly';
const ANNUAL = 'annual_recurring_billed_yearly';

/** A company with one primary page and its extractions, each a list of plans. */
function company(
  slug: string,
  profile: { category: string; employees: string },
  extractions: Record<string, Plan[]>,
) {
  return [
    records.company(slug, { name: slug, ...profile }),
    records.page(slug),
    ...Object.entries(extractions).flatMap(([version, plans]) => [
      records.scrape(slug, '', version),
      records.pricing(slug, '', version, 0, { plans }),
    ]),
  ];
}

const COMMUNICATION_SMALL = { category: 'Communication', employees: '51-200' };

beforeAll(async () => {
  api = await startTestApp(environment.config());
  key = await api.createKey(['read'], 'pro');
  await ingestAndProject(api, [
    // Entry 10 until March, then 12; the free tier and the add-on never count.
    ...company('alpha.io', COMMUNICATION_SMALL, {
      '20250105': [
        plan('free', [charge('freemium', null)]),
        plan('team', [charge(MONTHLY, 10), charge(MONTHLY, 25)]),
        plan('extra', [charge(MONTHLY, 2)], true),
      ],
      '20250301': [plan('team', [charge(MONTHLY, 12)])],
    }),
    // Entry 10 from a yearly price (120 / 12); 20 when only monthly billings count.
    ...company('beta.io', COMMUNICATION_SMALL, {
      '20250110': [plan('team', [charge(MONTHLY, 20), charge(ANNUAL, 120)])],
    }),
    // Usage-based: left out when modality=user_based.
    ...company(
      'gamma.io',
      { category: 'Communication', employees: '201-500' },
      {
        '20250105': [
          plan('team', [
            charge(MONTHLY, 30, {
              pricing_metric: { display_name: 'per GB', modality: 'usage_based' },
            }),
          ]),
        ],
      },
    ),
    // Another category.
    ...company(
      'delta.io',
      { category: 'Productivity', employees: '51-200' },
      {
        '20250105': [plan('team', [charge(MONTHLY, 100)])],
      },
    ),
    // Prices in EUR and USD: in both groups.
    ...company('epsilon.io', COMMUNICATION_SMALL, {
      '20250105': [plan('team', [charge(MONTHLY, 40, { currency: 'EUR' }), charge(MONTHLY, 45)])],
    }),
    // Only a free tier and an add-on: no entry price, not in the sample.
    ...company('zeta.io', COMMUNICATION_SMALL, {
      '20250105': [
        plan('free', [charge('freemium', 0)]),
        plan('extra', [charge(MONTHLY, 3)], true),
      ],
    }),
    // Extracted after the dates asked.
    ...company('eta.io', COMMUNICATION_SMALL, { '20250601': [plan('team', [charge(MONTHLY, 5)])] }),
    records.exchangeRate('20250101', { base: 'EUR', quote: 'USD', rate: 1.5 }),
  ]);
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

type BenchmarkQuery = NonNullable<operations['getBenchmarks']['parameters']['query']>;

/** A valid benchmarks call, typed by the document. */
async function benchmark(query: BenchmarkQuery) {
  const { data, response } = await api.client(key).GET('/v1/api/benchmarks', {
    params: { query },
  });
  return { status: response.status, headers: response.headers, body: data! };
}

describe('GET /api/benchmarks', () => {
  it('summarises the entry prices of the sample, one group per currency, ordered by code', async () => {
    const { status, body } = await benchmark({ category: 'communication', as_of: '20250201' });
    expect(status).toBe(200);
    expect(body).toEqual({
      as_of: '20250201',
      currency: null,
      groups: [
        {
          currency: 'EUR',
          sample_size: 1,
          min: null,
          p25: null,
          median: null,
          p75: null,
          max: null,
        },
        // alpha 10, beta 10, gamma 30, epsilon 45: numpy's linear quantiles
        { currency: 'USD', sample_size: 4, min: 10, p25: 10, median: 20, p75: 33.75, max: 45 },
      ],
    });
  });

  it('takes the extraction in force at as_of, today by default', async () => {
    const { body } = await benchmark({
      category: 'Communication',
      employees: '51-200',
      modality: 'user_based',
    });
    const today = new Date().toISOString().slice(0, 10).replaceAll('-', '');
    expect(body.as_of).toBe(today);
    // alpha 12 (March), beta 10, epsilon 45, eta 5 (June)
    expect(body.groups.find((group) => group.currency === 'USD')).toEqual({
      currency: 'USD',
      sample_size: 4,
      min: 5,
      p25: 8.75,
      median: 11,
      p75: 20.25,
      max: 45,
    });
  });

  it('counts only the charges of the billings and modalities asked for', async () => {
    const { body } = await benchmark({
      category: 'communication',
      as_of: '20250201',
      billing: MONTHLY,
      modality: 'user_based',
    });
    // alpha 10, beta 20 (its yearly price left out), epsilon 45; gamma is usage-based
    expect(body.groups).toEqual([
      { currency: 'EUR', sample_size: 1, min: null, p25: null, median: null, p75: null, max: null },
      { currency: 'USD', sample_size: 3, min: 10, p25: 15, median: 20, p75: 32.5, max: 45 },
    ]);
  });

  it("ranks a company's pages in the group of each currency, whatever its category", async () => {
    const ranked = await benchmark({
      category: 'communication',
      as_of: '20250201',
      company: 'alpha.io',
    });
    // 10 in [10, 10, 30, 45]: below 0, equal 2 → 100 × 1 / 4
    expect(ranked.body.company).toEqual({
      slug: 'alpha.io',
      pages: [
        { slug: 'alpha', version: '20250105', entry_price: 10, currency: 'USD', percentile: 25 },
      ],
    });
    const outside = await benchmark({
      category: 'communication',
      as_of: '20250201',
      company: 'delta.io',
    });
    expect(outside.body.company!.pages).toEqual([
      { slug: 'delta', version: '20250105', entry_price: 100, currency: 'USD', percentile: 100 },
    ]);
    const twoCurrencies = await benchmark({
      category: 'communication',
      as_of: '20250201',
      company: 'epsilon',
    });
    expect(twoCurrencies.body.company!.pages).toEqual([
      { slug: 'epsilon', version: '20250105', entry_price: 40, currency: 'EUR', percentile: null },
      { slug: 'epsilon', version: '20250105', entry_price: 45, currency: 'USD', percentile: 87.5 },
    ]);
    const none = await benchmark({ as_of: '20250201', company: 'eta.io' });
    expect(none.body.company!.pages).toEqual([
      { slug: 'eta', version: null, entry_price: null, currency: null, percentile: null },
    ]);
  });

  it('converts charge by charge before taking the lowest: one group', async () => {
    const dollars = await benchmark({
      category: 'communication',
      as_of: '20250201',
      currency: 'usd',
    });
    // epsilon: 40 EUR is 60 USD, so its 45 USD is the lowest
    expect(dollars.body).toMatchObject({
      currency: 'USD',
      unconverted: 0,
      groups: [
        { currency: 'USD', sample_size: 4, min: 10, p25: 10, median: 20, p75: 33.75, max: 45 },
      ],
    });
    const euros = await benchmark({
      category: 'communication',
      as_of: '20250201',
      currency: 'EUR',
      company: 'alpha',
    });
    // alpha and beta 10 / 1.5, gamma 30 / 1.5, epsilon 45 / 1.5 (below its 40 EUR): computed
    // unrounded, rounded once
    expect(euros.body.groups).toEqual([
      {
        currency: 'EUR',
        sample_size: 4,
        min: 6.6667,
        p25: 6.6667,
        median: 13.3333,
        p75: 22.5,
        max: 30,
      },
    ]);
    expect(euros.body.company!.pages).toEqual([
      { slug: 'alpha', version: '20250105', entry_price: 6.6667, currency: 'EUR', percentile: 25 },
    ]);
  });

  it('counts the pages left out for want of a rate', async () => {
    const { body } = await benchmark({
      category: 'communication',
      as_of: '20250201',
      currency: 'GBP',
    });
    // alpha, beta, gamma, epsilon; zeta has no priced charge, eta no extraction yet
    expect(body).toMatchObject({
      currency: 'GBP',
      unconverted: 4,
      groups: [{ currency: 'GBP', sample_size: 0, min: null, median: null }],
    });
  });

  it('gives null figures to a group of fewer than 3 pages', async () => {
    const { body } = await benchmark({
      category: 'Productivity',
      as_of: '20250201',
      company: 'delta.io',
    });
    expect(body.groups).toEqual([
      { currency: 'USD', sample_size: 1, min: null, p25: null, median: null, p75: null, max: null },
    ]);
    expect(body.company!.pages[0]).toMatchObject({ entry_price: 100, percentile: null });
  });

  it('answers an empty sample with no group', async () => {
    const { status, body } = await benchmark({ category: 'finance' });
    expect(status).toBe(200);
    expect(body.groups).toEqual([]);
  });

  it('answers the 400s of its parameters and 404 for an unknown company', async () => {
    const refused = async (query: string, code: string, status = 400) => {
      const response = await getJson<CodedErrorBody>(api, `/api/benchmarks?${query}`, key);
      expect(response.status, query).toBe(status);
      expect(response.body.code, query).toBe(code);
      return response.body.details;
    };
    expect(await refused('category=chat', 'INVALID_PARAMETER')).toMatchObject({
      parameter: 'category',
      provided: 'chat',
      valid_values: expect.arrayContaining(['Communication']) as unknown,
    });
    expect(await refused('employees=lots', 'INVALID_PARAMETER')).toMatchObject({
      parameter: 'employees',
      provided: 'lots',
    });
    expect(await refused('as_of=20250230', 'INVALID_DATE')).toEqual({
      parameter: 'as_of',
      provided: '20250230',
    });
    expect(await refused('currency=EURO', 'INVALID_CURRENCY')).toEqual({
      parameter: 'currency',
      provided: 'EURO',
    });
    expect(await refused('company=nope.io', 'NOT_FOUND', 404)).toMatchObject({ slug: 'nope.io' });
  });

  it('gives the same figures after a rebuild from the log', async () => {
    const read = () =>
      Promise.all(
        [
          { category: 'communication', as_of: '20250201', company: 'alpha.io' },
          { as_of: '20250201', currency: 'EUR', company: 'epsilon.io' },
        ].map(async (query) => (await benchmark(query)).body),
      );
    const before = await read();
    expect(before[0]!.groups.length).toBe(2);
    expect(await rebuildAndRead(api, read, before)).toEqual(before);
  });

  it('needs the pricing feature and costs one credit', async () => {
    const free = await api.createKey(['read'], 'free');
    const refused = await api.client(free).GET('/v1/api/benchmarks');
    expect(refused.response.status).toBe(403);
    const before = await benchmark({ as_of: '20250201' });
    const after = await benchmark({ as_of: '20250201' });
    expect(
      Number(before.headers.get('x-credits-remaining')) -
        Number(after.headers.get('x-credits-remaining')),
    ).toBe(1);
  });

  // Last: it adds a company of its own (in a category no other test reads).
  it('ranks only the page a composite slug names, and every page of a company slug', async () => {
    await ingestAndProject(api, [
      records.company('omega.io', { name: 'omega.io', category: 'HR', employees: '51-200' }),
      records.page('omega.io'),
      records.page('omega.io', 'enterprise'),
      records.scrape('omega.io', '', '20250105'),
      records.scrape('omega.io', 'enterprise', '20250105'),
      records.pricing('omega.io', '', '20250105', 0, {
        plans: [plan('team', [charge(MONTHLY, 7)])],
      }),
      records.pricing('omega.io', 'enterprise', '20250105', 0, {
        plans: [plan('scale', [charge(MONTHLY, 70)])],
      }),
    ]);
    const pagesOf = async (company: string) =>
      (await benchmark({ category: 'hr', as_of: '20250201', company })).body.company!.pages.map(
        (page) => [page.slug, page.entry_price],
      );
    expect(await pagesOf('omega.enterprise')).toEqual([['omega.enterprise', 70]]);
    expect(await pagesOf('omega.io')).toEqual([
      ['omega', 7],
      ['omega.enterprise', 70],
    ]);
  });
});
