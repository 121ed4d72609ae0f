import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { operations } from '#app/client';
import type { PricingRecord } from '#app/contracts';
import { PricingSnapshotReader, type PageExtraction } from '#app/persistence';
import {
  getJson,
  ingestAndProject,
  rebuildAndRead,
  type CodedErrorBody,
} from './support/catalogue-fixture.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/*
 * GET /v1/api/compare through the real ingestion path: pages side by side at one date, each slug
 * read as the pricing route reads it, figures converted on request.
 */

const environment = testEnvironment();
let api: TestApp;
let key: string;

type Plan = PricingRecord['plans'][number];
type Charge = Plan['charges'][number];

const MONTHLY = 'monthly_recurring_billed_monthly';
const ANNUAL = 'annual_recurring_billed_yearly';

const charge = (billing: string, price: number | null, currency = 'USD'): Charge => ({
  billing,
  currency,
  price,
  charge_type: 'flat',
  pricing_metric: null,
  usage_type: 'licensed',
  display_name: `${billing} ${price} ${currency}`,
});
const plan = (internalName: string, charges: Charge[], addOn = false): Plan => ({
  display_name: internalName.toUpperCase(),
  internal_name: internalName,
  add_on: addOn,
  charges,
  discounts: [],
});

/** A company with pages (sub-slug → its extractions, each a list of plans). */
function company(
  slug: string,
  profile: { name: string; category: string },
  pages: Record<string, Record<string, Plan[]>>,
) {
  return [
    records.company(slug, profile),
    ...Object.entries(pages).flatMap(([pageSlug, extractions]) => [
      records.page(slug, pageSlug),
      ...Object.entries(extractions).flatMap(([version, plans]) => [
        records.scrape(slug, pageSlug, version),
        records.pricing(slug, pageSlug, version, 0, { plans }),
      ]),
    ]),
  ];
}

/** Alpha's first extraction: a free tier, a plan billed monthly or yearly, an add-on. */
const ALPHA_JANUARY = [
  plan('free', [charge('freemium', null)]),
  plan('team', [charge(MONTHLY, 10), charge(ANNUAL, 240)]),
  plan('extra', [charge(MONTHLY, 2)], true),
];

const EUR_TO_USD = 1.5;

beforeAll(async () => {
  api = await startTestApp(environment.config());
  key = await api.createKey(['read'], 'pro');
  await ingestAndProject(api, [
    ...company(
      'alpha.io',
      { name: 'Alpha', category: 'Communication' },
      { '': { '20250105': ALPHA_JANUARY, '20250301': [plan('team', [charge(MONTHLY, 12)])] } },
    ),
    // In euros only.
    ...company(
      'beta.io',
      { name: 'Beta', category: 'Productivity' },
      {
        '': {
          '20250110': [
            plan('team', [charge(MONTHLY, 40, 'EUR')]),
            plan('scale', [charge(ANNUAL, 600, 'EUR')]),
          ],
        },
      },
    ),
    // First extracted after the dates most tests ask for.
    ...company(
      'gamma.io',
      { name: 'Gamma', category: 'Sales' },
      { '': { '20250601': [plan('team', [charge(MONTHLY, 5)])] } },
    ),
    // Priced in two currencies, and one plan without a monthly figure.
    ...company(
      'delta.io',
      { name: 'Delta', category: 'Finance' },
      {
        '': {
          '20250105': [
            plan('team', [charge(MONTHLY, 30), charge(MONTHLY, 25, 'EUR')]),
            plan('enterprise', [charge('pricing_not_disclosed', null)]),
          ],
        },
      },
    ),
    // No rate between yen and anything.
    ...company(
      'yen.io',
      { name: 'Yen', category: 'HR' },
      { '': { '20250105': [plan('team', [charge(MONTHLY, 900, 'JPY')])] } },
    ),
    // A primary page and another one.
    ...company(
      'omega.io',
      { name: 'Omega', category: 'Development' },
      {
        '': { '20250105': [plan('team', [charge(MONTHLY, 7)])] },
        enterprise: { '20250105': [plan('scale', [charge(MONTHLY, 70)])] },
      },
    ),
    // A page without any extraction.
    records.company('zeta.io', { name: 'Zeta', category: 'Sales' }),
    records.page('zeta.io'),
    // Two pages and no primary one.
    ...company(
      'duo.io',
      { name: 'Duo', category: 'Marketing' },
      {
        'a-team': { '20250105': [plan('team', [charge(MONTHLY, 8)])] },
        'b-team': { '20250105': [plan('team', [charge(MONTHLY, 9)])] },
      },
    ),
    records.exchangeRate('20250101', { base: 'EUR', quote: 'USD', rate: EUR_TO_USD }),
  ]);
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

type CompareQuery = operations['comparePricing']['parameters']['query'];

/** A valid compare call, typed by the document. */
async function compare(query: CompareQuery) {
  const { data, response } = await api.client(key).GET('/v1/api/compare', {
    params: { query },
  });
  return { status: response.status, headers: response.headers, body: data! };
}

/** A refused compare call: its status, code and details. */
async function refused(query: string) {
  const response = await getJson<CodedErrorBody>(api, `/api/compare?${query}`, key);
  return { status: response.status, code: response.body.code, details: response.body.details };
}

/** Ten different pages, the most one comparison takes. */
const TEN_PAGES = [
  'alpha',
  'beta',
  'gamma',
  'delta',
  'yen',
  'omega',
  'omega.enterprise',
  'duo.a-team',
  'duo.b-team',
  'zeta',
];

const today = () => new Date().toISOString().slice(0, 10).replaceAll('-', '');

describe('GET /api/compare', () => {
  it('gives each page in the order asked, at the extraction in force at as_of', async () => {
    const { status, body } = await compare({ slugs: 'beta,alpha.io', as_of: '20250201' });
    expect(status).toBe(200);
    expect(body).toEqual({
      as_of: '20250201',
      currency: null,
      pages: [
        {
          slug: 'beta',
          company_slug: 'beta.io',
          company_name: 'Beta',
          category: 'Productivity',
          version: '20250110',
          entry_price: 40,
          plans: [
            {
              internal_name: 'team',
              display_name: 'TEAM',
              add_on: false,
              charges: [
                {
                  display_name: `${MONTHLY} 40 EUR`,
                  billing: MONTHLY,
                  currency: 'EUR',
                  price: 40,
                  monthly_equivalent: 40,
                },
              ],
              lowest_monthly_equivalent: 40,
            },
            {
              internal_name: 'scale',
              display_name: 'SCALE',
              add_on: false,
              charges: [
                {
                  display_name: `${ANNUAL} 600 EUR`,
                  billing: ANNUAL,
                  currency: 'EUR',
                  price: 600,
                  monthly_equivalent: 600 / 12,
                },
              ],
              lowest_monthly_equivalent: 600 / 12,
            },
          ],
        },
        {
          slug: 'alpha',
          company_slug: 'alpha.io',
          company_name: 'Alpha',
          category: 'Communication',
          version: '20250105',
          // The free tier (0) and the add-on (2) are no entry price.
          entry_price: 10,
          plans: [
            expect.objectContaining({ internal_name: 'free', lowest_monthly_equivalent: 0 }),
            // 10 a month, or 240 a year (20 a month)
            expect.objectContaining({ internal_name: 'team', lowest_monthly_equivalent: 10 }),
            expect.objectContaining({
              internal_name: 'extra',
              add_on: true,
              lowest_monthly_equivalent: 2,
            }),
          ],
        },
      ],
    });
  });

  it('gives the plans as the series does at the same date', async () => {
    const { body } = await compare({ slugs: 'alpha,beta', as_of: '20250201' });
    const { data: series } = await api.client(key).GET('/v1/api/pricing/{slug}/series', {
      params: { path: { slug: 'alpha' }, query: { from: '20250201', to: '20250201' } },
    });
    const point = series!.points.at(-1)!;
    expect(body.pages[0]!.version).toBe(point.version);
    expect(
      body.pages[0]!.plans.map(({ lowest_monthly_equivalent: _lowest, ...item }) => item),
    ).toEqual(point.plans);
  });

  it('takes the extractions in force today (UTC) when as_of is not given', async () => {
    const { body } = await compare({ slugs: 'alpha,gamma' });
    expect(body.as_of).toBe(today());
    expect(body.pages.map((page) => [page.slug, page.version, page.entry_price])).toEqual([
      ['alpha', '20250301', 12],
      ['gamma', '20250601', 5],
    ]);
  });

  it('gives a page with no extraction on or before as_of a null version, no entry price, no plans', async () => {
    const { body } = await compare({ slugs: 'gamma,alpha,zeta', as_of: '20250104' });
    for (const page of body.pages) {
      expect(page).toMatchObject({ version: null, entry_price: null, plans: [] });
    }
    expect(body.pages.map((page) => [page.slug, page.company_name])).toEqual([
      ['gamma', 'Gamma'],
      ['alpha', 'Alpha'],
      ['zeta', 'Zeta'],
    ]);
    // On the day of the first extraction, it is in force.
    const onTheDay = await compare({ slugs: 'gamma,alpha', as_of: '20250105' });
    expect(onTheDay.body.pages[0]!.version).toBeNull();
    expect(onTheDay.body.pages[1]!.version).toBe('20250105');
  });

  it('converts entry prices, lowest monthly equivalents and charges given currency', async () => {
    const { body } = await compare({ slugs: 'beta,alpha,yen', as_of: '20250201', currency: 'usd' });
    expect(body.currency).toBe('USD');
    const [beta, alpha, yen] = body.pages;
    expect(beta!.entry_price).toBe(40 * EUR_TO_USD);
    expect(beta!.plans.map((item) => item.lowest_monthly_equivalent)).toEqual([
      40 * EUR_TO_USD,
      (600 / 12) * EUR_TO_USD,
    ]);
    expect(beta!.plans[0]!.charges[0]).toMatchObject({
      currency: 'EUR',
      price: 40,
      monthly_equivalent: 40,
      converted: {
        currency: 'USD',
        monthly_equivalent: 60,
        rate: EUR_TO_USD,
        rate_date: '20250101',
      },
    });
    // Already in dollars: rate 1, no rate date.
    expect(alpha!.entry_price).toBe(10);
    expect(alpha!.plans[1]!.charges[0]!.converted).toEqual({
      currency: 'USD',
      monthly_equivalent: 10,
      rate: 1,
      rate_date: null,
    });
    // No rate from yen: nothing to convert.
    expect(yen!.entry_price).toBeNull();
    expect(yen!.plans[0]!.lowest_monthly_equivalent).toBeNull();
    expect(yen!.plans[0]!.charges[0]!.converted).toBeNull();
    expect(yen!.version).toBe('20250105');
  });

  it('converts from unrounded figures and rounds once', async () => {
    const { body } = await compare({ slugs: 'alpha,delta', as_of: '20250201', currency: 'EUR' });
    const [alpha, delta] = body.pages;
    // 10 USD is 6.666... EUR
    expect(alpha!.entry_price).toBe(6.6667);
    // 30 USD is 20 EUR, below its own 25 EUR.
    expect(delta!.entry_price).toBe(20);
    expect(delta!.plans.map((item) => item.lowest_monthly_equivalent)).toEqual([20, null]);
  });

  it('gives no single entry price to a page priced in two currencies without currency', async () => {
    const { body } = await compare({ slugs: 'delta,alpha', as_of: '20250201' });
    const [delta] = body.pages;
    expect(delta!.entry_price).toBeNull();
    // In the charges' own currencies: 25 (EUR) is below 30 (USD); undisclosed has none.
    expect(delta!.plans.map((item) => item.lowest_monthly_equivalent)).toEqual([25, null]);
  });

  it('reads a company slug as its primary page and a composite slug as that page', async () => {
    const { body } = await compare({ slugs: 'omega.enterprise,omega.io', as_of: '20250201' });
    expect(body.pages.map((page) => [page.slug, page.company_slug, page.entry_price])).toEqual([
      ['omega.enterprise', 'omega.io', 70],
      ['omega', 'omega.io', 7],
    ]);
    const duo = await compare({ slugs: 'duo.b-team,duo.a-team', as_of: '20250201' });
    expect(duo.body.pages.map((page) => page.slug)).toEqual(['duo.b-team', 'duo.a-team']);
  });

  it('takes 2 to 10 pages: fewer or more is 400 INVALID_PARAMETER', async () => {
    const ten = await compare({ slugs: TEN_PAGES.join(',') });
    expect(ten.status).toBe(200);
    expect(ten.body.pages.map((page) => page.slug)).toEqual(TEN_PAGES);
    // Empty items are no pages; the count is checked before any slug is looked up.
    for (const query of [
      'slugs=alpha',
      'slugs=,alpha,,',
      'slugs=',
      'as_of=20250201',
      `slugs=${[...TEN_PAGES, 'nope.io'].join(',')}`,
    ]) {
      const answer = await refused(query);
      expect(answer.status, query).toBe(400);
      expect(answer.code, query).toBe('INVALID_PARAMETER');
      expect(answer.details, query).toMatchObject({
        parameter: 'slugs',
        expected: 'from 2 to 10 slugs, comma-separated',
      });
    }
    expect((await refused('slugs=alpha')).details?.provided).toBe('alpha');
    expect((await refused('as_of=20250201')).details?.provided).toBeNull();
  });

  it('refuses a page named twice, by the same slug or two forms of it', async () => {
    for (const [slugs, repeated, page] of [
      ['alpha,beta,alpha', 'alpha', 'alpha'],
      ['alpha.io,beta,alpha', 'alpha', 'alpha'],
      ['omega.io,omega', 'omega', 'omega'],
    ] as const) {
      const answer = await refused(`slugs=${slugs}`);
      expect(answer.status, slugs).toBe(400);
      expect(answer.code, slugs).toBe('INVALID_PARAMETER');
      expect(answer.details, slugs).toEqual({
        parameter: 'slugs',
        provided: repeated,
        page,
        expected: 'each page once',
      });
    }
  });

  it('answers 400 PAGE_REQUIRED for a company with several pages and no primary one', async () => {
    const answer = await refused('slugs=alpha,duo.io');
    expect(answer.status).toBe(400);
    expect(answer.code).toBe('PAGE_REQUIRED');
    expect(answer.details).toEqual({ pages: ['duo.a-team', 'duo.b-team'] });
  });

  it('answers 404 NOT_FOUND naming the first slug that names no page', async () => {
    const unknown = await refused('slugs=alpha,nope.io,duo');
    expect(unknown.status).toBe(404);
    expect(unknown.code).toBe('NOT_FOUND');
    expect(unknown.details).toMatchObject({ slug: 'nope.io' });
    // Not a slug at all: it names nothing either.
    const odd = await refused(`slugs=alpha,${encodeURIComponent('no page!')}`);
    expect(odd).toMatchObject({ status: 404, code: 'NOT_FOUND', details: { slug: 'no page!' } });
  });

  it('answers the 400s of as_of and currency, and of a repeated parameter', async () => {
    expect(await refused('slugs=alpha,beta&as_of=20250230')).toEqual({
      status: 400,
      code: 'INVALID_DATE',
      details: { parameter: 'as_of', provided: '20250230' },
    });
    expect(await refused('slugs=alpha,beta&as_of=2025-02-01')).toMatchObject({
      code: 'INVALID_DATE',
    });
    expect(await refused('slugs=alpha,beta&currency=EURO')).toEqual({
      status: 400,
      code: 'INVALID_CURRENCY',
      details: { parameter: 'currency', provided: 'EURO' },
    });
    expect(await refused('slugs=alpha,beta&slugs=gamma')).toMatchObject({
      status: 400,
      code: 'INVALID_PARAMETER',
      details: { parameter: 'slugs' },
    });
  });

  it('reads the extractions of the pages asked for in one read, at the one date', async () => {
    // Watched, not replaced: the reader still reads the database.
    const read = vi.spyOn(api.app.get(PricingSnapshotReader), 'inForceOn');
    try {
      await compare({ slugs: TEN_PAGES.join(','), as_of: '20250201' });
      expect(read).toHaveBeenCalledTimes(1);
      const [date, selection] = read.mock.calls[0]!;
      expect(date).toBe('20250201');
      expect(selection).toEqual({ pageIds: expect.any(Array) as unknown });
      expect(new Set(selection.pageIds).size).toBe(TEN_PAGES.length);
      const rows = (await read.mock.results[0]!.value) as PageExtraction[];
      // Zeta has no extraction, gamma none yet.
      expect(rows.map((row) => row.composite_slug).sort()).toEqual(
        TEN_PAGES.filter((slug) => slug !== 'zeta' && slug !== 'gamma').sort(),
      );
    } finally {
      read.mockRestore();
    }
  });

  it('gives the same answer after a rebuild from the log', async () => {
    const read = async () =>
      (await compare({ slugs: 'alpha,beta,delta', as_of: '20250201', currency: 'USD' })).body;
    const before = await read();
    expect(before.pages.map((page) => page.version)).toEqual(['20250105', '20250110', '20250105']);
    expect(await rebuildAndRead(api, read, before)).toEqual(before);
  });

  it('needs the pricing feature and costs one credit, whatever the number of pages', async () => {
    const free = await api.createKey(['read'], 'free');
    const forbidden = await api.client(free).GET('/v1/api/compare', {
      params: { query: { slugs: 'alpha,beta' } },
    });
    expect(forbidden.response.status).toBe(403);
    const credits = (headers: Headers) => Number(headers.get('x-credits-remaining'));
    const first = await compare({ slugs: 'alpha,beta' });
    const ten = await compare({ slugs: TEN_PAGES.join(',') });
    expect(ten.body.pages).toHaveLength(10);
    expect(credits(first.headers) - credits(ten.headers)).toBe(1);
    // A refusal costs nothing.
    await refused('slugs=alpha');
    const after = await compare({ slugs: 'alpha,beta' });
    expect(credits(ten.headers) - credits(after.headers)).toBe(1);
  });
});
