import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { operations, PricingClient } from '#app/client';
import type { PricingRecord } from '#app/contracts';
import {
  CACHE_CONTROL,
  getJson,
  ingestAndProject,
  type CodedErrorBody,
} from './support/catalogue-fixture.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/** GET /api/pricing/{slug}/diff on a real ingested history of three extractions. */

const environment = testEnvironment();
let api: TestApp;
let key: string;
let client: PricingClient;

type Plan = PricingRecord['plans'][number];
type Charge = Plan['charges'][number];

type DiffQuery = operations['getPricingDiff']['parameters']['query'];

const perUser = { display_name: 'per user', modality: 'user_based' };
const MONTHLY = 'monthly_recurring_billed_monthly';
const YEARLY = 'annual_recurring_billed_yearly';

function charge(billing: string, display_name: string, price: number | null): Charge {
  return {
    billing,
    currency: 'USD',
    price,
    charge_type: price === null ? 'flat' : 'metered',
    pricing_metric: price === null ? null : perUser,
    display_name,
    price_display: price === null ? undefined : `$${price}`,
  };
}

const FREE: Plan = {
  display_name: 'Free',
  internal_name: 'free',
  add_on: false,
  charges: [charge('freemium', 'Free forever', null)],
  discounts: [],
};
const ANNUAL = {
  discount_category: 'annual_discount',
  amount_type: 'percent',
  amount: 20,
  description: 'Save 20% yearly',
  duration: '12 months',
};
const pro = (monthly: number, yearly: number, overrides: Partial<Plan> = {}): Plan => ({
  display_name: 'Pro',
  internal_name: 'pro',
  add_on: false,
  charges: [charge(MONTHLY, 'Pro monthly', monthly), charge(YEARLY, 'Pro yearly', yearly)],
  discounts: [ANNUAL],
  ...overrides,
});
const TEAM: Plan = {
  display_name: 'Team',
  internal_name: 'team',
  add_on: false,
  charges: [charge(MONTHLY, 'Team monthly', 20)],
  discounts: [],
};

/** January: free and pro. March: pro dearer monthly, cheaper yearly, a bigger discount; team in, free out. */
const JAN = records.pricing('delta.io', '', '20250105', 0, { plans: [FREE, pro(10, 96)] });
const MAR = records.pricing('delta.io', '', '20250310', 0, {
  plans: [pro(12, 90, { discounts: [{ ...ANNUAL, amount: 25 }] }), TEAM],
});
/** April: pro renamed, its discount gone; team gains a yearly charge. */
const APR = records.pricing('delta.io', '', '20250420', 0, {
  plans: [
    pro(12, 90, { display_name: 'Professional', discounts: [] }),
    { ...TEAM, charges: [...TEAM.charges, charge(YEARLY, 'Team yearly', 200)] },
  ],
});

beforeAll(async () => {
  api = await startTestApp(environment.config());
  key = await api.createKey(['read'], 'pro');
  client = api.client(key);
  await ingestAndProject(api, [
    records.company('delta.io'),
    records.company('duo.io'),
    records.page('delta.io'),
    records.page('duo.io', 'a-team'),
    records.page('duo.io', 'b-team'),
    ...['20250105', '20250310', '20250420', '20250501'].map((version) =>
      records.scrape('delta.io', '', version),
    ),
    JAN,
    MAR,
    APR,
  ]);
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

/**
 * A valid diff call, typed by the document, with the ETag to revalidate if given. A 304 has no
 * body: openapi-fetch reads nothing when it says Content-Length: 0, else hands its text as `error`.
 */
async function diff(query: DiffQuery, ifNoneMatch?: string, slug = 'delta.io') {
  const header = ifNoneMatch === undefined ? undefined : { 'If-None-Match': ifNoneMatch };
  const { data, error, response } = await client.GET('/v1/api/pricing/{slug}/diff', {
    params: { path: { slug }, query, header },
  });
  return { status: response.status, headers: response.headers, body: data!, error };
}

async function creditsUsed(apiKey: string): Promise<number> {
  const { data } = await api.client(apiKey).GET('/v1/api/usage');
  return data!.credits.used;
}

describe('GET /api/pricing/{slug}/diff', () => {
  it('lists the changes between two versions, in order, with old and new values', async () => {
    const { status, body } = await diff({ from: '20250105', to: '20250310' });
    expect(status).toBe(200);
    const monthly = { billing: MONTHLY, display_name: 'Pro monthly' };
    const yearly = { billing: YEARLY, display_name: 'Pro yearly' };
    const none = { charge: null, discount: null };
    expect(body).toEqual({
      slug: 'delta',
      company_slug: 'delta.io',
      page_subslug: '',
      from: '20250105',
      to: '20250310',
      changes: [
        {
          event_type: 'price_increased',
          plan: 'pro',
          charge: monthly,
          discount: null,
          field: 'price',
          old_value: 10,
          new_value: 12,
          old_monthly_equivalent: 10,
          new_monthly_equivalent: 12,
          change_percent: 20,
          significance: 'major',
        },
        {
          event_type: 'charge_changed',
          plan: 'pro',
          charge: monthly,
          discount: null,
          field: 'price_display',
          old_value: '$10',
          new_value: '$12',
          significance: 'minor',
        },
        {
          event_type: 'price_decreased',
          plan: 'pro',
          charge: yearly,
          discount: null,
          field: 'price',
          old_value: 96,
          new_value: 90,
          // Yearly prices compare as twelfths: 8 a month, then 7.5.
          old_monthly_equivalent: 8,
          new_monthly_equivalent: 7.5,
          change_percent: -6.25,
          significance: 'moderate',
        },
        {
          event_type: 'charge_changed',
          plan: 'pro',
          charge: yearly,
          discount: null,
          field: 'price_display',
          old_value: '$96',
          new_value: '$90',
          significance: 'minor',
        },
        {
          event_type: 'discount_changed',
          plan: 'pro',
          charge: null,
          discount: 'annual_discount',
          field: 'amount',
          old_value: 20,
          new_value: 25,
          significance: 'minor',
        },
        {
          event_type: 'plan_added',
          plan: 'team',
          ...none,
          field: null,
          old_value: null,
          new_value: {
            display_name: 'Team',
            internal_name: 'team',
            add_on: false,
            charges: [
              {
                billing: MONTHLY,
                currency: 'USD',
                price: 20,
                charge_type: 'metered',
                pricing_metric: perUser,
                usage_type: null,
                display_name: 'Team monthly',
                price_display: '$20',
                included_quantity: null,
                overage_info: null,
              },
            ],
            discounts: [],
          },
          significance: 'major',
        },
        {
          event_type: 'plan_removed',
          plan: 'free',
          ...none,
          field: null,
          old_value: expect.objectContaining({ internal_name: 'free' }) as unknown,
          new_value: null,
          significance: 'major',
        },
      ],
      count: 7,
    });
  });

  it('compares with the latest version when to is not given', async () => {
    const { status, body } = await diff({ from: '20250310' });
    expect(status).toBe(200);
    expect(body.to).toBe('20250420');
    expect(body.changes).toEqual([
      {
        event_type: 'charge_changed',
        plan: 'pro',
        charge: null,
        discount: null,
        field: 'display_name',
        old_value: 'Pro',
        new_value: 'Professional',
        significance: 'minor',
      },
      {
        event_type: 'discount_removed',
        plan: 'pro',
        charge: null,
        discount: 'annual_discount',
        field: null,
        old_value: { ...ANNUAL, amount: 25 },
        new_value: null,
        significance: 'moderate',
      },
      {
        event_type: 'charge_added',
        plan: 'team',
        charge: { billing: YEARLY, display_name: 'Team yearly' },
        discount: null,
        field: null,
        old_value: null,
        new_value: expect.objectContaining({ price: 200, display_name: 'Team yearly' }) as unknown,
        significance: 'moderate',
      },
    ]);
    expect((await diff({ from: '20250310', to: '20250420' })).body).toEqual(body);
  });

  it('gives no change from a version to itself, and the reverse changes backwards', async () => {
    const same = await diff({ from: '20250310', to: '20250310' });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ from: '20250310', to: '20250310', changes: [], count: 0 });
    const back = await diff({ from: '20250310', to: '20250105' });
    // Plans in the order of the version compared to (January: free, then pro).
    expect(back.body.changes.map((change) => [change.event_type, change.plan])).toEqual([
      ['plan_added', 'free'],
      ['price_decreased', 'pro'],
      ['charge_changed', 'pro'],
      ['price_increased', 'pro'],
      ['charge_changed', 'pro'],
      ['discount_changed', 'pro'],
      ['plan_removed', 'team'],
    ]);
  });

  it('is cached by the version pair: ETag and 304 when both are given, none without to', async () => {
    const path = { from: '20250105', to: '20250420' };
    const first = await diff(path);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers.get('cache-control')).toMatch(CACHE_CONTROL);
    const before = await creditsUsed(key);
    const again = await diff(path, etag!);
    expect(again.status).toBe(304);
    expect(again.error ?? '').toBe('');
    expect(await creditsUsed(key)).toBe(before);
    const other = await diff({ from: '20250105', to: '20250310' });
    expect(other.headers.get('etag')).not.toBe(etag);
    const latest = await diff({ from: '20250105' }, '*');
    expect(latest.status).toBe(200);
    expect(latest.headers.get('etag')).toBeNull();
    expect(latest.body).toEqual(first.body);
  });

  it('costs one credit, and nothing when it fails', async () => {
    const own = await api.createKey(['read'], 'pro');
    const get = (query: string) =>
      getJson(api, `/api/pricing/delta.io/diff?${query}`, own).then((answer) => answer.status);
    expect(await get('from=20250105&to=20250310')).toBe(200);
    expect(await get('from=20250105')).toBe(200);
    expect(await get('from=20250106')).toBe(404);
    expect(await get('from=2025')).toBe(400);
    expect(await creditsUsed(own)).toBe(2);
  });

  it('answers 400 for a missing or malformed version, as GET /api/pricing does', async () => {
    // Raw: the document makes from required.
    const missing = await getJson(api, '/api/pricing/delta.io/diff?to=20250310', key);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      code: 'INVALID_PARAMETER',
      details: { parameter: 'from', provided: null },
    });
    for (const [query, provided] of [
      ['from=20250231', '20250231'],
      ['from=20250105&to=2025Q1', '2025Q1'],
    ] as const) {
      const answer = await getJson<CodedErrorBody>(api, `/api/pricing/delta.io/diff?${query}`, key);
      const pricing = await getJson<CodedErrorBody>(
        api,
        `/api/pricing/delta.io?version=${provided}`,
        key,
      );
      expect(answer.status, query).toBe(400);
      expect(answer.body, query).toEqual(pricing.body);
      expect(answer.body.code, query).toBe('INVALID_VERSION');
    }
  });

  it('answers 404 VERSION_NOT_FOUND for a version without an extraction, from or to', async () => {
    for (const [query, requested] of [
      ['from=20250501', '20250501'],
      ['from=20250105&to=20250106', '20250106'],
    ] as const) {
      const answer = await getJson<CodedErrorBody>(api, `/api/pricing/delta.io/diff?${query}`, key);
      expect(answer.status, query).toBe(404);
      expect(answer.body.code, query).toBe('VERSION_NOT_FOUND');
      expect(answer.body.details, query).toMatchObject({
        slug: 'delta.io',
        requested_version: requested,
        available_versions: ['20250105', '20250310', '20250420'],
        latest_version: '20250420',
      });
    }
  });

  it('answers an unknown slug and an ambiguous company as GET /api/pricing does', async () => {
    for (const slug of ['nowhere.io', 'delta.missing', 'duo.io']) {
      const answer = await diff({ from: '20250105' }, undefined, slug);
      const pricing = await client.GET('/v1/api/pricing/{slug}', { params: { path: { slug } } });
      expect(answer.status, slug).toBe(pricing.response.status);
      expect(answer.error, slug).toEqual(pricing.error);
    }
  });

  it('needs a plan with pricing', async () => {
    const refused = await getJson<CodedErrorBody>(
      api,
      '/api/pricing/delta.io/diff?from=20250105',
      await api.createKey(['read'], 'free'),
    );
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('PLAN_REQUIRED');
    expect(refused.body.details).toMatchObject({ required_plan: 'pro', current_plan: 'free' });
  });
});
