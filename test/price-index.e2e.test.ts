import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { operations } from '#app/client';
import type { PricingRecord } from '#app/contracts';
import { entryPrices, roundMoney, summarise, utcDate, type PricingDocument } from '#app/domain';
import { PriceIndexReader, TransactionRunner, type PriceIndexPage } from '#app/persistence';
import {
  getJson,
  ingestAndProject,
  rebuildAndRead,
  type CodedErrorBody,
} from './support/catalogue-fixture.js';
import { countsOf } from './support/metering.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/*
 * GET /v1/api/benchmarks/series, the price index: the groups /benchmarks answers at the start
 * of each step of a range, served from the price-index read model, which the projector builds
 * from the log whatever order the extractions arrive in.
 */

const environment = testEnvironment();
let api: TestApp;
let key: string;

type Plan = PricingRecord['plans'][number];
type Charge = Plan['charges'][number];

const MONTHLY = 'monthly_recurring_billed_monthly';
const ANNUAL = 'annual_recurring_billed_yearly';
const CATEGORIES = ['Communication', 'Productivity', 'Finance'];
const BANDS = ['51-200', '201-500'];
/** The days extractions are taken on; each page has some of them. */
const DAYS = ['20240115', '20240310', '20240701', '20240920', '20241205', '20250220', '20250515'];
const PAGES = 12;

const charge = (
  billing: string,
  price: number | null,
  overrides: Partial<Charge> = {},
): Charge => ({
  billing,
  currency: 'USD',
  price,
  charge_type: 'per_unit',
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

const companySlug = (page: number) => `index-${String(page).padStart(2, '0')}.io`;

/**
 * The plans of page `page` on its `day`th day: a free tier, a team plan priced in the page's
 * currency (EUR for some, GBP, which no rate converts, for one), usage-based for some, a
 * yearly price below the monthly one for others, a cheap add-on for some; one extraction with
 * nothing priced above 0, and one page pricing in two currencies.
 */
function plansOf(page: number, day: number): Plan[] {
  const currency = page === 7 ? 'GBP' : page % 4 === 1 ? 'EUR' : 'USD';
  const modality = page % 3 === 2 ? 'usage_based' : 'user_based';
  const price = 10 + 3 * page + 2 * day;
  const metric = { display_name: 'per seat', modality };
  if (page === 5 && day === 4) return [plan('free', [charge('freemium', null)])];
  const team = [charge(MONTHLY, price, { currency, pricing_metric: metric })];
  if (page % 2 === 0) {
    team.push(charge(ANNUAL, 12 * (price - 1), { currency, pricing_metric: metric }));
  }
  if (page === 6) team.push(charge(MONTHLY, price + 4, { currency: 'EUR' }));
  const plans = [plan('free', [charge('freemium', null)]), plan('team', team)];
  if (page % 5 === 0) plans.push(plan('extra', [charge(MONTHLY, 1)], true));
  return plans;
}

/** The days of page `page`: most of them, a different few left out for each. */
const daysOf = (page: number) => DAYS.map((_, day) => day).filter((day) => (day + page) % 4 !== 0);

/** Extractions held back to arrive after later ones of their page: out of order. */
const late = (page: number, day: number) => page % 3 === 0 && day === daysOf(page)[1];

function extractions(which: (page: number, day: number) => boolean) {
  return Array.from({ length: PAGES }, (_, page) =>
    daysOf(page)
      .filter((day) => which(page, day))
      .flatMap((day) => [
        records.scrape(companySlug(page), '', DAYS[day]!),
        records.pricing(companySlug(page), '', DAYS[day]!, 0, { plans: plansOf(page, day) }),
      ]),
  ).flat();
}

beforeAll(async () => {
  api = await startTestApp(environment.config());
  key = await api.createKey(['read'], 'enterprise');
  await ingestAndProject(api, [
    ...Array.from({ length: PAGES }, (_, page) => [
      records.company(companySlug(page), {
        name: companySlug(page),
        category: CATEGORIES[page % CATEGORIES.length]!,
        employees: BANDS[Math.floor(page / 3) % BANDS.length]!,
      }),
      records.page(companySlug(page)),
    ]).flat(),
    ...extractions((page, day) => !late(page, day)),
    records.exchangeRate('20240101', { base: 'EUR', quote: 'USD', rate: 1.1 }),
    records.exchangeRate('20250101', { base: 'EUR', quote: 'USD', rate: 1.05 }),
  ]);
  await ingestAndProject(api, extractions(late));
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

type PriceIndexQuery = operations['getPriceIndex']['parameters']['query'];
type BenchmarkQuery = NonNullable<operations['getBenchmarks']['parameters']['query']>;

async function priceIndex(query: PriceIndexQuery) {
  const { data, response } = await api.client(key).GET('/v1/api/benchmarks/series', {
    params: { query },
  });
  expect(response.status, JSON.stringify(query)).toBe(200);
  return data!;
}

async function benchmark(query: BenchmarkQuery) {
  const { data, response } = await api.client(key).GET('/v1/api/benchmarks', {
    params: { query },
  });
  expect(response.status, JSON.stringify(query)).toBe(200);
  return data!;
}

/** A refused price index: its status, code and details. */
async function refused(query: string) {
  const response = await getJson<CodedErrorBody>(api, `/api/benchmarks/series?${query}`, key);
  return { status: response.status, code: response.body.code, details: response.body.details };
}

describe('GET /api/benchmarks/series', () => {
  it('gives a point at the start of each month from the one containing from to the one containing to, today by default', async () => {
    const today = utcDate(new Date());
    const answer = await priceIndex({ from: '20250215' });
    expect(answer).toMatchObject({ from: '20250215', to: today, step: 'month', currency: null });
    const dates = answer.points.map((point) => point.date);
    expect(dates[0]).toBe('20250201');
    expect(dates.at(-1)).toBe(`${today.slice(0, 6)}01`);
    // One a month, each the first of the month after the one before.
    for (const [i, date] of dates.entries()) {
      if (i === 0) continue;
      const before = dates[i - 1]!;
      const month = Number(before.slice(4, 6));
      const next =
        month === 12
          ? `${Number(before.slice(0, 4)) + 1}0101`
          : `${before.slice(0, 4)}${String(month + 1).padStart(2, '0')}01`;
      expect(date).toBe(next);
    }
  });

  it('takes quarters when asked: the first days of January, April, July and October', async () => {
    const answer = await priceIndex({ from: '20240215', to: '20250101', step: 'quarter' });
    expect(answer.points.map((point) => point.date)).toEqual([
      '20240101',
      '20240401',
      '20240701',
      '20241001',
      '20250101',
    ]);
    expect(answer).toMatchObject({ from: '20240215', to: '20250101', step: 'quarter' });
  });

  it('summarises the entry prices in force at each point, as /benchmarks does that day', async () => {
    const answer = await priceIndex({
      category: 'productivity',
      billing: MONTHLY,
      from: '20240101',
      to: '20240301',
    });
    // Productivity is pages 1, 4, 7 and 10: on 20240201 page 1 (in EUR), 7 (in GBP) and 10
    // (in USD) have their extraction of 20240115, page 4 none before 20240310.
    expect(answer.points).toEqual([
      { date: '20240101', groups: [] },
      {
        date: '20240201',
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
          {
            currency: 'GBP',
            sample_size: 1,
            min: null,
            p25: null,
            median: null,
            p75: null,
            max: null,
          },
          {
            currency: 'USD',
            sample_size: 1,
            min: null,
            p25: null,
            median: null,
            p75: null,
            max: null,
          },
        ],
      },
      expect.objectContaining({ date: '20240301' }),
    ]);
    const sameDay = await benchmark({
      category: 'productivity',
      billing: MONTHLY,
      as_of: '20240201',
    });
    expect(answer.points[1]!.groups).toEqual(sameDay.groups);
  });

  it('converts each charge before the lowest is taken: one group per point, even an empty one', async () => {
    const answer = await priceIndex({ from: '20231201', to: '20240301', currency: 'eur' });
    expect(answer.currency).toBe('EUR');
    expect(answer.points[0]).toEqual({
      date: '20231201',
      groups: [
        {
          currency: 'EUR',
          sample_size: 0,
          min: null,
          p25: null,
          median: null,
          p75: null,
          max: null,
        },
      ],
    });
    for (const point of answer.points) {
      const sameDay = await benchmark({ currency: 'EUR', as_of: point.date });
      expect(point.groups, point.date).toEqual(sameDay.groups);
      expect(point.groups.map((group) => group.currency)).toEqual(['EUR']);
    }
    // The GBP page has no rate: it is in no converted sample.
    const inPounds = await benchmark({ as_of: '20240201', category: 'productivity' });
    const converted = await benchmark({
      as_of: '20240201',
      category: 'productivity',
      currency: 'EUR',
    });
    expect(inPounds.groups.map((group) => group.sample_size).reduce((a, b) => a + b)).toBe(
      converted.groups[0]!.sample_size + converted.unconverted!,
    );
    expect(converted.unconverted).toBe(1);
  });

  it('gives each point the groups /benchmarks gives at its date with the same filters', async () => {
    const month = fc
      .record({
        year: fc.integer({ min: 2023, max: 2025 }),
        month: fc.integer({ min: 1, max: 12 }),
      })
      .map(({ year, month: m }) => `${year}${String(m).padStart(2, '0')}`);
    const date = fc
      .tuple(month, fc.integer({ min: 1, max: 28 }))
      .map(([m, day]) => `${m}${String(day).padStart(2, '0')}`);
    const list = (values: string[]) =>
      fc.option(
        fc.subarray(values, { minLength: 1 }).map((items) => items.join(',')),
        {
          nil: undefined,
        },
      );
    const filters = fc.record({
      category: list(CATEGORIES.map((category) => category.toLowerCase())),
      employees: list(BANDS),
      billing: list([MONTHLY, ANNUAL, 'freemium']),
      modality: list(['user_based', 'usage_based']),
      currency: fc.option(fc.constantFrom('USD', 'EUR', 'GBP'), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(
        filters,
        fc.tuple(date, date).map(([a, b]) => (a <= b ? [a, b] : [b, a])),
        fc.constantFrom('month' as const, 'quarter' as const),
        fc.nat(),
        async (filter, [from, to], step, pick) => {
          const answer = await priceIndex({ ...filter, from, to, step });
          // Two points of each series, so that the run stays within the burst limit.
          for (const point of [answer.points[0]!, answer.points[pick % answer.points.length]!]) {
            const sameDay = await benchmark({ ...filter, as_of: point.date });
            expect(point.groups, `${JSON.stringify(filter)} at ${point.date}`).toEqual(
              sameDay.groups,
            );
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('counts only the charges of the billings and modalities asked for, of the pages of the categories and bands asked for', async () => {
    const at = '20240701';
    const sizes = async (query: Omit<PriceIndexQuery, 'from' | 'to'>) =>
      Object.fromEntries(
        (await priceIndex({ ...query, from: at, to: at })).points[0]!.groups.map((group) => [
          group.currency,
          group.sample_size,
        ]),
      );
    // Every page has an extraction in force on 20240701: pages 1, 5 and 9 price in EUR, 7 in
    // GBP, 6 in USD and EUR, the others in USD.
    expect(await sizes({})).toEqual({ EUR: 4, GBP: 1, USD: 8 });
    // Pages 2, 5, 8 and 11 are usage-based (5 in EUR); 6's EUR charge is per user.
    expect(await sizes({ modality: 'usage_based' })).toEqual({ EUR: 1, USD: 3 });
    expect(await sizes({ modality: 'user_based', billing: MONTHLY })).toEqual({
      EUR: 3,
      GBP: 1,
      USD: 5,
    });
    // Only the even pages price yearly, all of them in USD.
    expect(await sizes({ billing: ANNUAL })).toEqual({ USD: 6 });
    // Finance is pages 2, 5, 8 and 11; 2 and 8 in the smaller band.
    expect(await sizes({ category: 'finance', employees: '51-200' })).toEqual({ USD: 2 });
    // Of Finance and Productivity, 4, 5, 10 and 11 are in the larger band (5 in EUR).
    expect(await sizes({ category: 'Finance,productivity', employees: '201-500' })).toEqual({
      EUR: 1,
      USD: 3,
    });
  });

  it('samples at each point the extraction the pricing route says is in force, whatever order the extractions arrived in', async () => {
    const answer = await priceIndex({ from: '20231101', to: '20250601', step: 'quarter' });
    for (const { date, groups } of answer.points) {
      // The sample as /benchmarks took it before the price index: each page's document in
      // force, as the pricing route gives it, and its entry prices.
      const sample = new Map<string, number[]>();
      for (let page = 0; page < PAGES; page++) {
        const slug = companySlug(page);
        const pricing = await api.client(key).GET('/v1/api/pricing/{slug}', {
          params: { path: { slug }, query: { as_of: date } },
        });
        expect([200, 404]).toContain(pricing.response.status);
        const document = pricing.response.status === 404 ? null : pricing.data!;
        const prices = document ? entryPrices(document as PricingDocument, {}).byCurrency : [];
        for (const [currency, price] of prices) {
          sample.set(currency, [...(sample.get(currency) ?? []), price]);
        }
        const ranked = await benchmark({ as_of: date, company: slug });
        expect(ranked.company!.pages.length).toBeGreaterThan(0);
        for (const item of ranked.company!.pages) {
          expect(item.version, `${slug} on ${date}`).toBe(document?.version ?? null);
        }
      }
      const expected = [...sample.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([currency, prices]) => {
          const { sample_size, ...figures } = summarise(prices);
          const rounded = Object.entries(figures).map(([name, figure]) => [
            name,
            figure === null ? null : roundMoney(figure),
          ]);
          return { currency, sample_size, ...Object.fromEntries(rounded) };
        });
      expect(groups, date).toEqual(expected);
    }
  });

  it('answers 400 for a missing from, a step other than month or quarter, a range of more than 120 points and from after to', async () => {
    expect(await refused('to=20250101')).toEqual({
      status: 400,
      code: 'INVALID_PARAMETER',
      details: { parameter: 'from', provided: null, expected: 'a date YYYYMMDD' },
    });
    for (const step of ['week', 'day']) {
      expect(await refused(`from=20250101&step=${step}`)).toEqual({
        status: 400,
        code: 'INVALID_PARAMETER',
        details: { parameter: 'step', provided: step, valid_values: ['month', 'quarter'] },
      });
    }
    // 20000101 to 20091201 is 120 months; one more is too many.
    expect((await priceIndex({ from: '20000101', to: '20091231' })).points).toHaveLength(120);
    expect(await refused('from=20000101&to=20100101')).toEqual({
      status: 400,
      code: 'RANGE_TOO_LARGE',
      details: { provided: { from: '20000101', to: '20100101', step: 'month' }, max_points: 120 },
    });
    expect(
      (await priceIndex({ from: '19950101', to: '20241231', step: 'quarter' })).points,
    ).toHaveLength(120);
    expect(await refused('from=19950101&to=20250101&step=quarter')).toMatchObject({
      status: 400,
      code: 'RANGE_TOO_LARGE',
    });
    expect(await refused('from=20250301&to=20250101')).toEqual({
      status: 400,
      code: 'INVALID_RANGE',
      details: { provided: { from: '20250301', to: '20250101' } },
    });
    expect(await refused('from=20250230')).toMatchObject({
      code: 'INVALID_DATE',
      details: { parameter: 'from', provided: '20250230' },
    });
    expect(await refused('from=20250101&to=2025-02-01')).toMatchObject({
      code: 'INVALID_DATE',
      details: { parameter: 'to' },
    });
    expect(await refused('from=20250101&currency=EURO')).toMatchObject({
      code: 'INVALID_CURRENCY',
      details: { parameter: 'currency', provided: 'EURO' },
    });
    expect(await refused('from=20250101&category=chat')).toMatchObject({
      code: 'INVALID_PARAMETER',
      details: { parameter: 'category', provided: 'chat' },
    });
    expect(await refused('from=20250101&employees=lots')).toMatchObject({
      code: 'INVALID_PARAMETER',
      details: { parameter: 'employees', provided: 'lots' },
    });
  });

  it('needs the pricing feature and costs one credit', async () => {
    const free = await api.createKey(['read'], 'free');
    const forbidden = await getJson<CodedErrorBody>(
      api,
      '/api/benchmarks/series?from=20250101',
      free,
    );
    expect(forbidden.status).toBe(403);
    const payer = await api.createKey(['read'], 'pro');
    const ask = () =>
      api.client(payer).GET('/v1/api/benchmarks/series', {
        params: { query: { from: '20240101' } },
      });
    await ask();
    expect((await countsOf(api, payer)).credits).toBe(1);
    // The same question again (a kept answer) costs its credit too; a refusal none.
    await ask();
    await getJson(api, '/api/benchmarks/series?from=20240101&step=week', payer);
    expect((await countsOf(api, payer)).credits).toBe(2);
  });

  it('keeps an answer whose to defaults to today for that day only', async () => {
    const dayKey = await api.createKey(['read'], 'pro');
    const ask = async () =>
      (
        await api.client(dayKey).GET('/v1/api/benchmarks/series', {
          params: { query: { from: '20250101' } },
        })
      ).data!;
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    try {
      vi.setSystemTime(new Date('2025-03-31T23:59:59.000Z'));
      expect(await ask()).toMatchObject({ to: '20250331' });
      vi.setSystemTime(new Date('2025-04-01T00:00:01.000Z'));
      const nextDay = await ask();
      expect(nextDay.to).toBe('20250401');
      expect(nextDay.points.at(-1)!.date).toBe('20250401');
    } finally {
      vi.useRealTimers();
    }
  });

  it('leaves no unknown path under /benchmarks to another route: an unknown one is a coded 404', async () => {
    const unknown = await getJson<CodedErrorBody>(api, '/api/benchmarks/seriez?from=20250101', key);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBeDefined();
  });
});

describe('the price-index read model', () => {
  const TABLES = {
    price_index_companies: 'slug',
    price_index_versions: 'page_id, version',
    price_index_entries: 'page_id, version, entry_index',
  };
  const rows = () =>
    Promise.all(
      Object.entries(TABLES).map(([table, order]) =>
        api.app.get(TransactionRunner).query(`SELECT * FROM ${table} ORDER BY ${order}`),
      ),
    );

  it('holds every extraction once, each in force until the next of its page, however they arrived', async () => {
    const [, versions] = await rows();
    const byPage = new Map<string, { version: string; until: string | null }[]>();
    for (const row of versions as { page_id: string; version: string; until: string | null }[]) {
      byPage.set(row.page_id, [...(byPage.get(row.page_id) ?? []), row]);
    }
    expect(byPage.size).toBe(PAGES);
    for (const held of byPage.values()) {
      held.forEach((row, i) => expect(row.until).toBe(held[i + 1]?.version ?? null));
    }
    expect(versions).toHaveLength(
      Array.from({ length: PAGES }, (_, page) => daysOf(page).length).reduce((a, b) => a + b),
    );
  });

  it('is rebuilt from the log row for row, and answers the same after', async () => {
    const before = await rows();
    const question = () => priceIndex({ from: '20240101', to: '20250601', currency: 'USD' });
    const answer = await question();
    expect(await rebuildAndRead(api, question, answer)).toEqual(answer);
    expect(await rows()).toEqual(before);
  });

  // Last: they change the catalogue.
  it('moves a page to the sample of its company’s new category, at every point', async () => {
    const moved = companySlug(4);
    const question = () =>
      priceIndex({ category: 'hr', from: '20240101', to: '20250601', step: 'quarter' });
    const before = await question();
    expect(before.points.every((point) => point.groups.length === 0)).toBe(true);
    await ingestAndProject(api, [
      records.company(moved, { name: moved, category: 'HR', employees: '201-500' }),
    ]);
    const after = await question();
    const sizes = after.points.map((point) => point.groups[0]?.sample_size ?? 0);
    const first = DAYS[daysOf(4)[0]!]!;
    expect(sizes).toEqual(after.points.map((point) => (point.date >= first ? 1 : 0)));
  });

  it('sends a kept answer again only while the entry prices and the rates stand still', async () => {
    const question = () => priceIndex({ category: 'finance', from: '20250601', to: '20250601' });
    const before = await question();
    await ingestAndProject(api, [
      records.scrape(companySlug(2), '', '20250525'),
      records.pricing(companySlug(2), '', '20250525', 0, {
        plans: [plan('team', [charge(MONTHLY, 1_000)])],
      }),
    ]);
    const after = await question();
    expect(after).not.toEqual(before);
    expect(after.points[0]!.groups.find((group) => group.currency === 'USD')!.max).toBe(1_000);
    const converted = () => priceIndex({ from: '20250601', to: '20250601', currency: 'USD' });
    const rated = await converted();
    await ingestAndProject(api, [
      records.exchangeRate('20250501', { base: 'EUR', quote: 'USD', rate: 2 }),
    ]);
    expect(await converted()).not.toEqual(rated);
  });

  it('reads a sample chunk by chunk, each page whole in one chunk, every price exact', async () => {
    // A monthly equivalent of 17 significant digits (10.833333333333334): 130 a year.
    await ingestAndProject(api, [
      records.scrape(companySlug(3), '', '20250801'),
      records.pricing(companySlug(3), '', '20250801', 0, {
        plans: [plan('team', [charge(ANNUAL, 130)])],
      }),
    ]);
    const range = { from: '20240201', to: '20251231' };
    type Row = {
      page_id: string;
      version: string;
      until: string | null;
      currency: string;
      monthly: number;
    };
    const held = await api.app.get(TransactionRunner).query<Row>(
      `SELECT page_id, version, until, currency, monthly FROM price_index_entries
       WHERE version <= $1 AND (until IS NULL OR until > $2)`,
      [range.to, range.from],
    );
    expect(held.map((row) => row.monthly)).toContain(130 / 12);
    const rowsOf = (page: PriceIndexPage): Row[] =>
      [...page.extractions()].flatMap(({ version, until, candidates }) =>
        candidates.map((candidate) => ({ page_id: page.pageId, version, until, ...candidate })),
      );
    // The candidates of one extraction come in no particular order.
    const sorted = (rows: Row[]) =>
      rows
        .map((row) => ({ row, key: JSON.stringify(Object.values(row)) }))
        .sort((a, b) => (a.key < b.key ? -1 : 1))
        .map(({ row }) => row);
    const readingOrder = (rows: Row[]) => rows.map((row) => `${row.page_id} ${row.version}`);
    const reader = api.app.get(PriceIndexReader);
    const read = async (chunkCandidates?: number) => {
      const chunks: PriceIndexPage[][] = [];
      for await (const chunk of reader.pages(range, {}, chunkCandidates)) chunks.push(chunk);
      const rows = chunks.flat().flatMap(rowsOf);
      expect(sorted(rows)).toEqual(sorted(held));
      expect(readingOrder(rows)).toEqual(readingOrder(rows).sort());
      return chunks;
    };
    expect(await read()).toHaveLength(1);
    const pageIds = new Set(held.map((row) => row.page_id));
    // At 3, every page has more candidates than a chunk and is read alone; at 20, a chunk holds a
    // few pages, and the page its limit cut short is read again whole with the next.
    const byThree = await read(3);
    expect(byThree.every((chunk) => chunk.length === 1 && chunk[0]!.candidateCount > 3)).toBe(true);
    const byTwenty = await read(20);
    expect(byTwenty.some((chunk) => chunk.length > 1)).toBe(true);
    for (const chunks of [byThree, byTwenty]) {
      // No page in two chunks.
      expect(chunks.flat()).toHaveLength(pageIds.size);
    }
    for (const chunk of byTwenty) {
      const candidates = chunk.reduce((sum, page) => sum + page.candidateCount, 0);
      if (candidates > 20) expect(chunk).toHaveLength(1);
    }
  });
});
