import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components, operations, PricingClient } from '#app/client';
import type { PricingRecord } from '#app/contracts';
import {
  CACHE_CONTROL,
  currentQuarter,
  getJson,
  ingestAndProject,
  ISO_TIMESTAMP,
  rebuildAndRead,
  UUID,
  type CodedErrorBody,
} from './support/catalogue-fixture.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

const environment = testEnvironment();
let api: TestApp;
let key: string;
let client: PricingClient;

type PricingDocument = components['schemas']['PricingDocument'];
type PricingQuery = NonNullable<operations['getPricing']['parameters']['query']>;
type SeriesQuery = NonNullable<operations['getPricingSeries']['parameters']['query']>;
type Charge = components['schemas']['Charge'] | components['schemas']['SeriesCharge'];

const perUser = { display_name: 'per user', modality: 'user_based' };

/** Every kind of charge the interface shows: flat and free, per seat, usage-based add-on. */
const JAN05 = records.pricing('prism.io', '', '20250105', 10, {
  plans: [
    {
      display_name: 'Free',
      internal_name: 'free',
      add_on: false,
      charges: [
        {
          billing: 'freemium',
          currency: 'USD',
          price: null,
          charge_type: 'flat',
          pricing_metric: null,
          display_name: 'Free forever',
        },
      ],
      discounts: [],
    },
    {
      display_name: 'Pro',
      internal_name: 'pro',
      add_on: false,
      charges: [
        {
          billing: 'monthly_recurring_billed_monthly',
          currency: 'USD',
          price: 10,
          charge_type: 'metered',
          pricing_metric: perUser,
          usage_type: 'licensed',
          display_name: 'Pro monthly',
          price_display: '$10/user/month',
        },
        {
          billing: 'annual_recurring_billed_yearly',
          currency: 'USD',
          price: 96,
          charge_type: 'metered',
          pricing_metric: perUser,
          usage_type: 'licensed',
          display_name: 'Pro yearly',
          price_display: '$96/user/year',
          included_quantity: null,
          overage_info: null,
        },
      ],
      discounts: [
        {
          discount_category: 'annual_discount',
          amount_type: 'percent',
          amount: 20,
          description: 'Save 20% yearly',
          duration: '12 months',
        },
      ],
    },
    {
      display_name: 'Extra storage',
      internal_name: 'storage',
      add_on: true,
      charges: [
        {
          billing: 'monthly_recurring_billed_monthly',
          currency: 'EUR',
          price: 0.5,
          charge_type: 'metered',
          pricing_metric: { display_name: 'per GB', modality: 'usage_based' },
          usage_type: 'pay_as_you_go',
          display_name: 'Storage',
          price_display: '€0.50/GB',
        },
      ],
      discounts: [],
    },
  ],
});
const MAR10 = records.pricing('prism.io', '', '20250310', 12);
const APR20 = records.pricing('prism.io', '', '20250420', 15);
const TEAM = records.pricing('prism.io', 'team', '20250215', 7);
const NOVA = records.pricing('nova.io', '', currentQuarter().start, 9);

const uuid = () => expect.stringMatching(UUID) as unknown as string;

/** The document 2.5 describes for an extraction: all fields, null where the record had none. */
/** The contract's table, for the billings these records use. */
function expectedMonthly(billing: string, price: number | null): number | null {
  if (billing === 'freemium') return 0;
  if (price === null) return null;
  return billing === 'annual_recurring_billed_yearly' ? price / 12 : price;
}

function expectedDocument(record: PricingRecord, slug: string, pageUrl: string) {
  return {
    slug,
    company_slug: record.company_slug,
    page_subslug: record.page_slug,
    page_id: uuid(),
    version: record.version,
    scrape: {
      id: uuid(),
      version: record.version,
      page_url: pageUrl,
      created_at: expect.stringMatching(ISO_TIMESTAMP) as unknown as string,
    },
    plans: record.plans.map((plan) => ({
      id: uuid(),
      display_name: plan.display_name,
      internal_name: plan.internal_name,
      add_on: plan.add_on,
      charges: plan.charges.map((charge) => ({
        id: uuid(),
        billing: charge.billing,
        currency: charge.currency,
        price: charge.price,
        charge_type: charge.charge_type,
        pricing_metric: charge.pricing_metric ? { id: uuid(), ...charge.pricing_metric } : null,
        usage_type: charge.usage_type ?? null,
        display_name: charge.display_name,
        price_display: charge.price_display ?? null,
        included_quantity: null,
        overage_info: null,
        monthly_equivalent: expectedMonthly(charge.billing, charge.price),
      })),
      discounts: plan.discounts.map((discount) => ({ id: uuid(), ...discount })),
    })),
  };
}

const PRIMARY_URL = 'https://prism.io/pricing';
const TEAM_URL = 'https://prism.io/pricing/team';

beforeAll(async () => {
  api = await startTestApp(environment.config());
  key = await api.createKey(['read'], 'pro');
  client = api.client(key);
  const scrape = (pageSlug: string, version: string, scraper = 'scraper_1', company = 'prism.io') =>
    records.scrape(company, pageSlug, version, {
      scraper,
      page_url: `https://${company}/pricing${pageSlug ? `/${pageSlug}` : ''}`,
    });
  await ingestAndProject(api, [
    records.company('prism.io', { name: 'Prism' }),
    records.company('duo.io', { name: 'Duo' }),
    records.company('nova.io', { name: 'Nova' }),
    records.page('prism.io'),
    records.page('prism.io', 'team'),
    records.page('prism.io', 'enterprise'),
    records.page('duo.io', 'a-team'),
    records.page('duo.io', 'b-team'),
    records.page('nova.io'),
    scrape('', '20250105', 'scraper_2'),
    scrape('', '20250105', 'scraper_1'),
    scrape('', '20250310'),
    scrape('', '20250420'),
    scrape('team', '20250215'),
    scrape('enterprise', '20250301'),
    scrape('', currentQuarter().start, 'scraper_1', 'nova.io'),
    JAN05,
    MAR10,
    APR20,
    TEAM,
    NOVA,
    // USD into EUR divides by EUR→USD; USD→GBP only from March.
    records.exchangeRate('20250101', { base: 'EUR', quote: 'USD', rate: 1.25 }),
    records.exchangeRate('20250301', { base: 'USD', quote: 'GBP', rate: 0.75 }),
  ]);
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

/**
 * A valid pricing call, typed by the document, with the ETag to revalidate if given. A 304 has
 * no body: openapi-fetch reads nothing when it says Content-Length: 0, else hands its text as
 * `error`.
 */
async function pricing(slug: string, query: PricingQuery = {}, ifNoneMatch?: string) {
  const header = ifNoneMatch === undefined ? undefined : { 'If-None-Match': ifNoneMatch };
  const { data, error, response } = await client.GET('/v1/api/pricing/{slug}', {
    params: { path: { slug }, query, header },
  });
  return { status: response.status, headers: response.headers, body: data!, error };
}

/** Raw: the coded refusals, mostly of what the document forbids (a malformed version...). */
async function expectCoded(path: string, status: number, code: string) {
  const response = await getJson<CodedErrorBody>(api, `/api/pricing/${path}`, key);
  const body = response.body;
  expect(response.status, path).toBe(status);
  expect(Object.keys(body).sort(), path).toEqual(['code', 'details', 'error']);
  expect(body.error, path).toBeTypeOf('string');
  expect(body.code, path).toBe(code);
  return body.details!;
}

function idsOf(document: PricingDocument): string[] {
  return [
    document.page_id,
    document.scrape.id,
    ...document.plans.flatMap((plan) => [
      plan.id,
      ...plan.charges.flatMap((charge) => [
        charge.id,
        ...(charge.pricing_metric ? [charge.pricing_metric.id] : []),
      ]),
      ...plan.discounts.map((discount) => discount.id),
    ]),
  ];
}

describe('GET /api/pricing/{slug}', () => {
  it('gives the latest version without parameters, for the full slug or the base', async () => {
    for (const slug of ['prism.io', 'prism']) {
      const { status, body } = await pricing(slug);
      expect(status, slug).toBe(200);
      expect(body, slug).toEqual(expectedDocument(APR20, 'prism', PRIMARY_URL));
    }
  });

  it('gives the version asked for, with every field of 2.5', async () => {
    const { status, body } = await pricing('prism.io', { version: '20250105' });
    expect(status).toBe(200);
    expect(body).toEqual(expectedDocument(JAN05, 'prism', PRIMARY_URL));
    const march = await pricing('prism', { version: '20250310' });
    expect(march.body).toEqual(expectedDocument(MAR10, 'prism', PRIMARY_URL));
    expect(march.body.page_id).toBe(body.page_id);
    expect(march.body.scrape.id).not.toBe(body.scrape.id);
  });

  it('shows a flat charge without a metric, usage type or price display as nulls', async () => {
    const { body } = await pricing('prism.io', { version: '20250105' });
    const free = body.plans[0]!.charges[0]!;
    expect(free).toMatchObject({
      price: null,
      charge_type: 'flat',
      pricing_metric: null,
      usage_type: null,
      price_display: null,
      included_quantity: null,
      overage_info: null,
    });
  });

  it('gives each charge its monthly equivalent: a free tier 0, a yearly price a twelfth', async () => {
    const { body: document } = await pricing('prism.io', { version: '20250105' });
    const figures = document.plans.map((plan) =>
      plan.charges.map((charge) => [charge.display_name, charge.monthly_equivalent]),
    );
    expect(figures.slice(0, 2)).toEqual([
      [['Free forever', 0]],
      [
        ['Pro monthly', 10],
        ['Pro yearly', 8],
      ],
    ]);
    expect(document).not.toHaveProperty('currency');
    expect(document.plans[1]!.charges[0]).not.toHaveProperty('converted');
  });

  it('gives every id as a distinct UUID', async () => {
    const { body } = await pricing('prism.io', { version: '20250105' });
    const ids = idsOf(body);
    expect(ids).toHaveLength(2 + 3 + 4 + 3 + 1);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives a composite slug its own page', async () => {
    const { status, body } = await pricing('prism.team');
    expect(status).toBe(200);
    expect(body).toEqual(expectedDocument(TEAM, 'prism.team', TEAM_URL));
    const primary = await pricing('prism.io');
    expect(body.page_id).not.toBe(primary.body.page_id);
  });

  it.each([
    ['2025Q1', '20250105'],
    ['2025q1', '20250105'],
    ['2025M03', '20250310'],
    ['202503', '20250310'],
    ['2025Q2', '20250420'],
    ['2025W01', '20250105'],
    ['20250310', '20250310'],
  ])('gives the earliest version within period %s', async (period, version) => {
    const { status, body } = await pricing('prism.io', { period });
    expect(status).toBe(200);
    expect(body.version).toBe(version);
    expect(body).toEqual((await pricing('prism.io', { version })).body);
  });

  it('answers 400 CONFLICTING_PARAMETERS to version and period together', async () => {
    await expectCoded('prism.io?version=20250105&period=2025Q1', 400, 'CONFLICTING_PARAMETERS');
  });

  it('answers CONFLICTING_PARAMETERS to version and period together whatever their values', async () => {
    const details = await expectCoded(
      'prism.io?version=20250231&period=2025Q9&currency=zz',
      400,
      'CONFLICTING_PARAMETERS',
    );
    expect(details).toEqual({ provided: { version: '20250231', period: '2025Q9' } });
  });

  it.each([
    ['20250105', '20250105'],
    ['20250309', '20250105'],
    ['20250310', '20250310'],
    ['20250419', '20250310'],
    ['20991231', '20250420'],
  ])('gives as_of=%s the latest extraction on or before it: %s', async (date, version) => {
    const { status, body, headers } = await pricing('prism.io', { as_of: date });
    expect(status).toBe(200);
    expect(body.version).toBe(version);
    expect(body).toEqual((await pricing('prism.io', { version })).body);
    // A late extraction of an earlier day may still change it: not cacheable.
    expect(headers.get('etag')).toBeNull();
  });

  it('answers 404 VERSION_NOT_FOUND to an as_of before the first extraction', async () => {
    const details = await expectCoded('prism.io?as_of=20250104', 404, 'VERSION_NOT_FOUND');
    expect(details).toEqual({
      slug: 'prism.io',
      requested_version: '20250104',
      message: 'No pricing extraction of prism.io on or before 20250104',
      available_versions: ['20250105', '20250310', '20250420'],
      latest_version: '20250420',
      suggestion: expect.stringContaining('20250420') as unknown,
    });
  });

  it('answers 400 INVALID_DATE to an as_of that is no calendar date, before the slug', async () => {
    for (const date of ['20250230', '2025-01-05', '2025Q1']) {
      const details = await expectCoded(`unknown.io?as_of=${date}`, 400, 'INVALID_DATE');
      expect(details, date).toEqual({ parameter: 'as_of', provided: date });
    }
  });

  it('answers 400 CONFLICTING_PARAMETERS to as_of with version or period', async () => {
    const withVersion = await expectCoded(
      'prism.io?as_of=20250310&version=20250105',
      400,
      'CONFLICTING_PARAMETERS',
    );
    expect(withVersion).toEqual({ provided: { version: '20250105', as_of: '20250310' } });
    const withPeriod = await expectCoded(
      'prism.io?as_of=20250310&period=2025Q1',
      400,
      'CONFLICTING_PARAMETERS',
    );
    expect(withPeriod).toEqual({ provided: { period: '2025Q1', as_of: '20250310' } });
  });

  it('answers 404 VERSION_NOT_FOUND with the versions there are', async () => {
    const details = await expectCoded('prism.io?version=20250106', 404, 'VERSION_NOT_FOUND');
    expect(details).toEqual({
      slug: 'prism.io',
      requested_version: '20250106',
      message: expect.any(String) as unknown,
      available_versions: ['20250105', '20250310', '20250420'],
      latest_version: '20250420',
      suggestion: expect.stringContaining('20250420') as unknown,
    });
  });

  it('answers 404 PERIOD_NOT_FOUND for a period without an extraction', async () => {
    for (const period of ['2024Q4', '2025M02', '2025W10']) {
      const details = await expectCoded(`prism.io?period=${period}`, 404, 'PERIOD_NOT_FOUND');
      expect(details, period).toEqual({
        slug: 'prism.io',
        requested_period: period,
        message: expect.any(String) as unknown,
        latest_version: '20250420',
        suggestion: expect.any(String) as unknown,
      });
    }
  });

  it('answers 404 VERSION_NOT_FOUND with no versions for a page without any extraction', async () => {
    const latest = await expectCoded('prism.enterprise', 404, 'VERSION_NOT_FOUND');
    expect(latest).toMatchObject({
      slug: 'prism.enterprise',
      available_versions: [],
      latest_version: null,
    });
    expect(latest.message).toBeTypeOf('string');
    expect(latest.suggestion).toBeTypeOf('string');
    const scraped = await expectCoded(
      'prism.enterprise?version=20250301',
      404,
      'VERSION_NOT_FOUND',
    );
    expect(scraped).toMatchObject({
      requested_version: '20250301',
      available_versions: [],
      latest_version: null,
    });
    const period = await expectCoded('prism.enterprise?period=2025Q1', 404, 'PERIOD_NOT_FOUND');
    expect(period).toMatchObject({ requested_period: '2025Q1', latest_version: null });
  });

  it.each([
    ['version=20250231', 'INVALID_VERSION', '20250231'],
    ['version=2025013', 'INVALID_VERSION', '2025013'],
    ['version=2025Q1', 'INVALID_VERSION', '2025Q1'],
    ['period=2025Q5', 'INVALID_QUARTER', '2025Q5'],
    ['period=2025M13', 'INVALID_MONTH', '2025M13'],
    ['period=202500', 'INVALID_MONTH', '202500'],
    ['period=2021W53', 'INVALID_WEEK', '2021W53'],
    ['period=20250231', 'INVALID_VERSION', '20250231'],
    ['period=soon', 'INVALID_PERIOD_FORMAT', 'soon'],
  ])('answers 400 to %s with %s and details.provided', async (query, code, provided) => {
    const details = await expectCoded(`prism.io?${query}`, 400, code);
    expect(details.provided).toBe(provided);
    if (code === 'INVALID_PERIOD_FORMAT') {
      expect(Object.keys(details.examples as object).sort()).toEqual([
        'month',
        'quarter',
        'version',
        'week',
      ]);
    }
  });

  it('answers 400 PAGE_REQUIRED for a company with several pages and no primary one', async () => {
    for (const slug of ['duo.io', 'duo']) {
      const details = await expectCoded(slug, 400, 'PAGE_REQUIRED');
      expect([...(details.pages as string[])].sort(), slug).toEqual(['duo.a-team', 'duo.b-team']);
    }
  });

  it('answers 404 NOT_FOUND with the slug and a message for an unknown slug', async () => {
    for (const slug of ['nowhere.io', 'prism.missing']) {
      const details = await expectCoded(slug, 404, 'NOT_FOUND');
      expect(details.slug, slug).toBe(slug);
      expect(details.message, slug).toBeTypeOf('string');
    }
  });

  it('checks a malformed version or period before the slug: 400 even for an unknown page', async () => {
    await expectCoded('nowhere.io?version=2025-01-01', 400, 'INVALID_VERSION');
    await expectCoded('nowhere.io?period=2025Q9', 400, 'INVALID_QUARTER');
    await expectCoded('nowhere.io?period=soon', 400, 'INVALID_PERIOD_FORMAT');
  });

  it('answers 401 AUTH_INVALID and a free key 403, in the coded shape', async () => {
    const missing = await getJson<CodedErrorBody>(api, '/api/pricing/prism.io', null);
    expect(missing.status).toBe(401);
    expect(missing.body.code).toBe('AUTH_INVALID');
    expect(missing.body).not.toHaveProperty('message');
    const free = api.client(await api.createKey(['read'], 'free'));
    const refused = await free.GET('/v1/api/pricing/{slug}', {
      params: { path: { slug: 'prism.io' } },
    });
    expect(refused.response.status).toBe(403);
    expect(refused.error!.details).toMatchObject({ required_plan: 'pro', current_plan: 'free' });
    expect(refused.error!.details).toHaveProperty('upgrade_url', expect.any(String));
    const header = await getJson<PricingDocument>(api, '/api/pricing/prism.io', null, {
      'x-api-key': key,
    });
    expect(header.status).toBe(200);
  });
});

type SeriesBody = components['schemas']['PricingSeries'];

describe('GET /api/pricing/{slug}/series', () => {
  const series = async (query: SeriesQuery) => {
    const { data, response } = await client.GET('/v1/api/pricing/{slug}/series', {
      params: { path: { slug: 'prism' }, query },
    });
    return { status: response.status, body: data! };
  };
  const versionsAt = (body: SeriesBody) => body.points.map((point) => [point.date, point.version]);

  it('gives the extraction in force at the start of each month, none before the first', async () => {
    const { status, body } = await series({ from: '20250101', to: '20250515' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ slug: 'prism', step: 'month', from: '20250101', to: '20250515' });
    expect(versionsAt(body)).toEqual([
      ['20250101', null],
      ['20250201', '20250105'],
      ['20250301', '20250105'],
      ['20250401', '20250310'],
      ['20250501', '20250420'],
    ]);
    expect(body.points[0]!.plans).toEqual([]);
    expect(body.points[1]!.plans.map((plan) => plan.internal_name)).toEqual(
      JAN05.plans.map((plan) => plan.internal_name),
    );
    expect(body.points[1]!.plans[1]).toEqual({
      internal_name: 'pro',
      display_name: 'Pro',
      add_on: false,
      charges: [
        {
          display_name: 'Pro monthly',
          billing: 'monthly_recurring_billed_monthly',
          currency: 'USD',
          price: 10,
          monthly_equivalent: 10,
        },
        {
          display_name: 'Pro yearly',
          billing: 'annual_recurring_billed_yearly',
          currency: 'USD',
          price: 96,
          monthly_equivalent: 8,
        },
      ],
    });
  });

  it('starts weeks on Monday and quarters on their first day', async () => {
    const weeks = await series({ step: 'week', from: '20250105', to: '20250113' });
    expect(versionsAt(weeks.body)).toEqual([
      ['20241230', null],
      ['20250106', '20250105'],
      ['20250113', '20250105'],
    ]);
    const quarters = await series({ step: 'quarter', from: '20250105', to: '20250630' });
    expect(versionsAt(quarters.body)).toEqual([
      ['20250101', null],
      ['20250401', '20250310'],
    ]);
  });

  it('runs from the first extraction to today by default, and says so', async () => {
    const { body } = await series({});
    const today = new Date().toISOString().slice(0, 10).replaceAll('-', '');
    expect(body).toMatchObject({ step: 'month', from: '20250105', to: today });
    expect(body.points[0]).toMatchObject({ date: '20250101', version: null });
    expect(body.points.at(-1)).toMatchObject({
      date: `${today.slice(0, 6)}01`,
      version: '20250420',
    });
  });

  it('starts at `to` by default when `to` comes before the first extraction', async () => {
    const { status, body } = await series({ to: '20241115' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ from: '20241115', to: '20241115' });
    expect(versionsAt(body)).toEqual([['20241101', null]]);
  });

  it('answers the 400s of its parameters in the coded shape, before the slug', async () => {
    const refused = async (query: string, code: string) => {
      const response = await getJson<CodedErrorBody>(api, `/api/pricing/nope/series?${query}`, key);
      expect(response.status, query).toBe(400);
      expect(response.body.code, query).toBe(code);
      return response.body.details;
    };
    expect(await refused('from=20250301&to=20250101', 'INVALID_RANGE')).toEqual({
      provided: { from: '20250301', to: '20250101' },
    });
    expect(await refused('step=day', 'INVALID_PARAMETER')).toEqual({
      parameter: 'step',
      provided: 'day',
      valid_values: ['week', 'month', 'quarter'],
    });
    expect(await refused('from=20250230', 'INVALID_DATE')).toEqual({
      parameter: 'from',
      provided: '20250230',
    });
  });

  it('answers 400 RANGE_TOO_LARGE beyond 520 points, and takes 520', async () => {
    const tooLarge = await getJson<CodedErrorBody>(
      api,
      '/api/pricing/prism/series?step=week&from=20000103&to=20091221',
      key,
    );
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body).toMatchObject({
      code: 'RANGE_TOO_LARGE',
      details: { provided: { from: '20000103', to: '20091221', step: 'week' }, max_points: 520 },
    });
    // 2000-01-03 is a Monday: 520 weeks end with the one starting 2009-12-14.
    const largest = await series({ step: 'week', from: '20000103', to: '20091220' });
    expect(largest.status).toBe(200);
    expect(largest.body.points).toHaveLength(520);
  });

  it('gives the same series, converted or not, after a rebuild from the log', async () => {
    const read = () =>
      Promise.all(
        [
          { from: '20250101', to: '20250515' },
          { step: 'week', from: '20250101', to: '20250420', currency: 'GBP' } as const,
        ].map(async (query) => (await series(query)).body),
      );
    const before = await read();
    expect(before[1]!.points.length).toBeGreaterThan(10);
    expect(await rebuildAndRead(api, read, before)).toEqual(before);
  });

  it('answers 404 for an unknown page and 403 to a key without the pricing feature', async () => {
    const unknown = await client.GET('/v1/api/pricing/{slug}/series', {
      params: { path: { slug: 'nope' } },
    });
    expect(unknown.response.status).toBe(404);
    const free = api.client(await api.createKey(['read'], 'free'));
    const refused = await free.GET('/v1/api/pricing/{slug}/series', {
      params: { path: { slug: 'prism' } },
    });
    expect(refused.response.status).toBe(403);
    expect(refused.error!.code).toBeTypeOf('string');
  });
});

describe('currency: charges converted at the rate of their version', () => {
  const charges = (body: { plans: { charges: Charge[] }[] }) =>
    body.plans.flatMap((plan) => plan.charges);
  const pricedCharges = JAN05.plans
    .flatMap((plan) => plan.charges)
    .filter((charge) => expectedMonthly(charge.billing, charge.price) !== null).length;

  it('divides by the inverse rate when only that pair has one, keeping the captured figures', async () => {
    const { status, body, headers } = await pricing('prism', {
      version: '20250105',
      currency: 'eur',
    });
    expect(status).toBe(200);
    // Addressed by a version, so cacheable; a rate pushed later may change it: a minute at most.
    expect(headers.get('cache-control')).toBe('private, max-age=60');
    expect(body).toMatchObject({ currency: 'EUR', unconverted: 0 });
    const pro = charges(body).find((charge) => charge.display_name === 'Pro monthly')!;
    expect(pro).toMatchObject({ price: 10, currency: 'USD', monthly_equivalent: 10 });
    expect(pro.converted).toEqual({
      currency: 'EUR',
      monthly_equivalent: 8,
      rate: 1 / 1.25,
      rate_date: '20250101',
    });
    const free = charges(body).find((charge) => charge.display_name === 'Free forever')!;
    expect(free.converted).toMatchObject({ monthly_equivalent: 0 });
  });

  it('converts nothing without a rate on or before the version, and counts what it left', async () => {
    const before = await pricing('prism', { version: '20250105', currency: 'GBP' });
    expect(before.body).toMatchObject({ currency: 'GBP', unconverted: pricedCharges });
    expect(charges(before.body).every((charge) => charge.converted === null)).toBe(true);
    const after = await pricing('prism', { version: '20250310', currency: 'GBP' });
    expect(after.body.unconverted).toBe(0);
    expect(charges(after.body)[0]!.converted).toMatchObject({ rate: 0.75, rate_date: '20250301' });
  });

  it('keeps a charge already in the currency: rate 1, no rate date', async () => {
    const { body } = await pricing('prism', { as_of: '20250401', currency: 'USD' });
    expect(charges(body)[0]!.converted).toEqual({
      currency: 'USD',
      monthly_equivalent: 12,
      rate: 1,
      rate_date: null,
    });
  });

  it('sums what a series left unconverted over its points', async () => {
    const { data: body } = await client.GET('/v1/api/pricing/{slug}/series', {
      params: {
        path: { slug: 'prism' },
        query: { from: '20250101', to: '20250401', currency: 'gbp' },
      },
    });
    // 0201 and 0301 show the January extraction (no rate yet), 0401 March's (converted).
    expect(body).toMatchObject({ currency: 'GBP', unconverted: 2 * pricedCharges });
    expect(charges(body!.points[3]!)[0]!.converted).toMatchObject({ rate: 0.75 });
  });

  it('answers 400 INVALID_CURRENCY to anything but three letters, before the slug', async () => {
    for (const path of ['nope?currency=EURO', 'nope/series?currency=E1R', 'prism?currency=']) {
      const response = await getJson<CodedErrorBody>(api, `/api/pricing/${path}`, key);
      if (path.endsWith('=')) {
        expect(response.status, path).toBe(200); // empty counts as absent
        continue;
      }
      expect(response.status, path).toBe(400);
      expect(response.body.code, path).toBe('INVALID_CURRENCY');
      expect(response.body.details, path).toMatchObject({ parameter: 'currency' });
    }
  });
});

describe('stable ids and caching', () => {
  const calls: [string, PricingQuery][] = [
    ['prism.io', {}],
    ['prism.io', { version: '20250105' }],
    ['prism.io', { version: '20250310' }],
    ['prism.team', {}],
    ['prism.io', { period: '2025Q1' }],
  ];

  it('keeps every id and every document the same across requests and a rebuild', async () => {
    const read = () =>
      Promise.all(
        calls.map(async ([slug, query]) => {
          const response = await pricing(slug, query);
          return { status: response.status, body: response.body };
        }),
      );
    const before = await read();
    expect(before.map((answer) => answer.status)).toEqual(calls.map(() => 200));
    expect(await read()).toEqual(before);
    const etag = (await pricing('prism.io', { version: '20250105' })).headers.get('etag');
    const after = await rebuildAndRead(api, read, before);
    expect(after).toEqual(before);
    expect(after.map((answer) => idsOf(answer.body))).toEqual(
      before.map((answer) => idsOf(answer.body)),
    );
    expect((await pricing('prism.io', { version: '20250105' })).headers.get('etag')).toBe(etag);
  });

  async function expectCacheable(slug: string, query: PricingQuery) {
    const path = `${slug} ${JSON.stringify(query)}`;
    const first = await pricing(slug, query);
    expect(first.status, path).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag, path).toMatch(/^(W\/)?".+"$/);
    expect(first.headers.get('cache-control'), path).toMatch(CACHE_CONTROL);
    const again = await pricing(slug, query, etag!);
    expect(again.status, path).toBe(304);
    expect(again.error ?? '', path).toBe('');
    const stale = await pricing(slug, query, '"other"');
    expect(stale.status, path).toBe(200);
    expect(stale.body, path).toEqual(first.body);
  }

  it('gives a version-addressed answer an ETag and Cache-Control, and 304 on a match', async () => {
    await expectCacheable('prism.io', { version: '20250105' });
    await expectCacheable('prism.team', { version: '20250215' });
  });

  it('gives a closed period an ETag too', async () => {
    await expectCacheable('prism.io', { period: '2025Q1' });
    await expectCacheable('prism.io', { period: '202503' });
  });

  it('gives no ETag to the latest version nor to a period that includes today', async () => {
    const quarter = currentQuarter().name;
    const open = await pricing('nova.io', { period: quarter });
    expect(open.status).toBe(200);
    expect(open.body).toEqual(expectedDocument(NOVA, 'nova', 'https://nova.io/pricing'));
    for (const [slug, query] of [
      ['prism.io', {}],
      ['nova.io', {}],
      ['nova.io', { period: quarter }],
    ] as [string, PricingQuery][]) {
      const path = `${slug} ${JSON.stringify(query)}`;
      const response = await pricing(slug, query, '*');
      expect(response.status, path).toBe(200);
      expect(response.headers.get('etag'), path).toBeNull();
      expect(response.headers.get('cache-control') ?? '', path).not.toMatch(CACHE_CONTROL);
    }
  });
});
