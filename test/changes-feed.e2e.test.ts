import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components, operations } from '#app/client';
import { getJson, ingestAndProject, type GeneralErrorBody } from './support/catalogue-fixture.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';
import { waitFor } from './support/wait-for.js';

/** GET /api/changes: the feed of pricing changes, followed by its cursor. */

const environment = testEnvironment();
let api: TestApp;
let key: string;

type FeedChange = components['schemas']['FeedChange'];
type FeedQuery = NonNullable<operations['listChanges']['parameters']['query']>;

/** A valid call of the feed, typed by the document. */
async function feed(query: FeedQuery = {}, apiKey = key) {
  const { data, response } = await api.client(apiKey).GET('/v1/api/changes', {
    params: { query },
  });
  return { status: response.status, body: data! };
}

/** A change as [slug, from, to, event_type, field]: enough to tell changes apart here. */
const brief = (change: FeedChange) => [
  change.slug,
  change.from_version,
  change.to_version,
  change.event_type,
  change.field,
];

/** Follows next_cursor from `since` until a page has no more, returning every change read. */
async function follow(
  query: FeedQuery,
  since?: string,
): Promise<{ changes: FeedChange[]; cursor: string }> {
  const changes: FeedChange[] = [];
  let cursor = since;
  for (;;) {
    const { status, body } = await feed({ ...query, ...(cursor ? { since: cursor } : {}) });
    expect(status).toBe(200);
    changes.push(...body.changes);
    cursor = body.next_cursor;
    if (!body.has_more) return { changes, cursor };
  }
}

/** Ingests one extraction (its scrape first) and waits until the feed has `total` changes. */
async function extract(record: ReturnType<typeof records.pricing>, total: number): Promise<void> {
  await ingestAndProject(api, [
    records.scrape(record.company_slug, record.page_slug, record.version),
    record,
  ]);
  await waitFor(`the feed to hold ${total} changes`, async () =>
    (await follow({ limit: 500 })).changes.length === total ? true : undefined,
  );
}

const PRICE = (slug: string, from: string | null, to: string) => [
  [slug, from, to, 'price_increased', 'price'],
  [slug, from, to, 'charge_changed', 'price_display'],
];

beforeAll(async () => {
  api = await startTestApp(environment.config());
  key = await api.createKey(['read'], 'pro');
  await ingestAndProject(api, [
    records.company('alpha.io'),
    records.company('beta.io'),
    records.page('alpha.io'),
    records.page('beta.io', 'team'),
  ]);
  // One extraction at a time, so the log's order is known.
  await extract(records.pricing('alpha.io', '', '20250105', 10), 1);
  await extract(records.pricing('beta.io', 'team', '20250105', 20), 2);
  await extract(records.pricing('alpha.io', '', '20250201', 12), 4);
  // Older than alpha's latest: a backfill, which changes nothing the API serves.
  await extract(records.pricing('alpha.io', '', '20241201', 5), 4);
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

const ALL = [
  ['alpha', null, '20250105', 'plan_added', null],
  ['beta.team', null, '20250105', 'plan_added', null],
  ...PRICE('alpha', '20250105', '20250201'),
];

describe('GET /api/changes', () => {
  it('lists every change oldest first: first extractions add their plans, backfills add nothing', async () => {
    const { status, body } = await feed();
    expect(status).toBe(200);
    expect(body.changes.map(brief)).toEqual(ALL);
    expect(body.has_more).toBe(false);
    const [added, increase] = [body.changes[0]!, body.changes[2]!];
    expect(added).toMatchObject({ company_slug: 'alpha.io', old_value: null });
    expect(added.new_value).toMatchObject({ internal_name: 'pro', display_name: 'Pro' });
    expect(added.new_value).not.toHaveProperty('id');
    expect(increase).toMatchObject({
      plan: 'pro',
      charge: { billing: 'monthly_recurring_billed_monthly', display_name: 'Pro monthly' },
      old_value: 10,
      new_value: 12,
    });
  });

  it('pages by cursor: every change once, in order, also while extractions arrive', async () => {
    const first = await feed({ limit: 1 });
    expect(first.body.changes.map(brief)).toEqual([ALL[0]]);
    expect(first.body.has_more).toBe(true);
    await extract(records.pricing('beta.io', 'team', '20250301', 25), 6);
    const rest = await follow({ limit: 1 }, first.body.next_cursor);
    const seen = [...first.body.changes, ...rest.changes].map(brief);
    expect(seen).toEqual([...ALL, ...PRICE('beta.team', '20250105', '20250301')]);
    expect((await follow({ limit: 500 })).changes.map(brief)).toEqual(seen);

    // At the end: an empty page that keeps the cursor, which then shows only what is new.
    const end = await feed({ since: rest.cursor });
    expect(end.body).toEqual({ changes: [], next_cursor: rest.cursor, has_more: false });
    await extract(records.pricing('alpha.io', '', '20250401', 15), 8);
    const next = await feed({ since: rest.cursor });
    expect(next.body.changes.map(brief)).toEqual(PRICE('alpha', '20250201', '20250401'));
  });

  it('filters by company and by event type', async () => {
    const beta = await follow({ company: 'beta.io', limit: 2 });
    expect(beta.changes.map(brief)).toEqual([
      ['beta.team', null, '20250105', 'plan_added', null],
      ...PRICE('beta.team', '20250105', '20250301'),
    ]);
    const increases = await follow({ event_type: 'price_increased' });
    expect(increases.changes.map((change) => change.slug)).toEqual(['alpha', 'beta.team', 'alpha']);
    const both = await feed({ company: 'alpha.io', event_type: 'plan_added' });
    expect(both.body.changes.map(brief)).toEqual([ALL[0]]);
    const none = await feed({ company: 'nobody.io' });
    expect(none.body).toMatchObject({ changes: [], has_more: false });
  });

  it('answers 400 in the general shape for a bad cursor, limit, event type or company', async () => {
    const { body } = await feed();
    const tampered = `${body.next_cursor.slice(0, -1)}${body.next_cursor.endsWith('A') ? 'B' : 'A'}`;
    for (const query of [
      'since=not-a-cursor',
      'since=abc%3D',
      `since=${Buffer.from('1.2').toString('base64url')}`,
      `since=${tampered}x`,
      'limit=0',
      'limit=501',
      'limit=ten',
      'event_type=price_up',
      'company=Not%20A%20Slug',
      'since=a&since=b',
    ]) {
      const response = await getJson<GeneralErrorBody>(api, `/api/changes?${query}`, key);
      expect(response.status, query).toBe(400);
      expect(response.body.error, query).toBe('Bad Request');
      expect(response.body.message, query).toEqual(expect.any(String));
    }
    const eventType = await getJson<GeneralErrorBody>(api, '/api/changes?event_type=x', key);
    expect(eventType.body.details).toMatchObject({ parameter: 'event_type', provided: 'x' });
    expect(eventType.body.details?.['valid_values']).toContain('price_increased');
  });

  it('needs the pricing feature: 403 on the free plan', async () => {
    const free = await api.createKey(['read'], 'free');
    const { error, response } = await api.client(free).GET('/v1/api/changes');
    expect(response.status).toBe(403);
    expect(error).toMatchObject({
      error: 'Forbidden',
      details: { required_plan: 'pro', current_plan: 'free' },
    });
  });

  it('charges one credit per 2xx and none for a 400', async () => {
    const own = await api.createKey(['read'], 'pro');
    const used = async () => (await api.client(own).GET('/v1/api/usage')).data!.credits.used;
    expect(await used()).toBe(0);
    expect((await feed({ limit: 1 }, own)).status).toBe(200);
    expect((await feed({ since: 'bad' }, own)).status).toBe(400);
    expect((await feed({}, own)).status).toBe(200);
    expect(await used()).toBe(2);
  });
});

describe('how much a change matters', () => {
  /** gamma's price: +10 % (moderate), +1.82 % (minor), then -28.57 % (major). */
  const GAMMA = [
    ['20250105', 100],
    ['20250201', 110],
    ['20250301', 112],
    ['20250401', 80],
  ] as const;

  beforeAll(async () => {
    await ingestAndProject(api, [records.company('gamma.io'), records.page('gamma.io')]);
    const before = (await follow({ limit: 500 })).changes.length;
    // The first adds one plan; each later one changes the price and its display.
    for (const [index, [version, price]] of GAMMA.entries()) {
      await extract(records.pricing('gamma.io', '', version, price), before + 1 + 2 * index);
    }
  });

  it('weighs every change, and sizes each price change in monthly equivalents', async () => {
    const { changes } = await follow({ company: 'gamma.io' });
    expect(changes.map((change) => [change.event_type, change.significance])).toEqual([
      ['plan_added', 'major'],
      ['price_increased', 'moderate'],
      ['charge_changed', 'minor'],
      ['price_increased', 'minor'],
      ['charge_changed', 'minor'],
      ['price_decreased', 'major'],
      ['charge_changed', 'minor'],
    ]);
    expect(changes[1]).toMatchObject({
      old_value: 100,
      new_value: 110,
      old_monthly_equivalent: 100,
      new_monthly_equivalent: 110,
      change_percent: 10,
    });
    expect(changes[3]).toMatchObject({ change_percent: 1.82 });
    expect(changes[5]).toMatchObject({ change_percent: -28.57 });
    for (const change of [changes[0]!, changes[2]!]) {
      expect(change).not.toHaveProperty('change_percent');
      expect(change).not.toHaveProperty('old_monthly_equivalent');
    }
    // The diff route weighs the same changes alike.
    const diff = await api.client(key).GET('/v1/api/pricing/{slug}/diff', {
      params: { path: { slug: 'gamma.io' }, query: { from: '20250105', to: '20250201' } },
    });
    const { slug: _slug, company_slug: _company, page_subslug: _page, ...first } = changes[1]!;
    const { from_version: _from, to_version: _to, recorded_at: _at, ...asDiffed } = first;
    expect(diff.data!.changes[0]).toEqual(asDiffed);
  });

  it('min_significance keeps the changes of that level or more, page after page', async () => {
    const everything = (await follow({ limit: 500 })).changes;
    expect(new Set(everything.map((change) => change.significance))).toEqual(
      new Set(['minor', 'moderate', 'major']),
    );
    const atLeast = {
      minor: ['minor', 'moderate', 'major'],
      moderate: ['moderate', 'major'],
      major: ['major'],
    } as const;
    for (const [least, levels] of Object.entries(atLeast)) {
      const expected = everything.filter((change) =>
        (levels as readonly string[]).includes(change.significance),
      );
      const paged = await follow({ min_significance: least as keyof typeof atLeast, limit: 1 });
      expect(paged.changes, least).toEqual(expected);
      // The cursor past the last one is the end of this filtered feed.
      const end = await feed({ since: paged.cursor, min_significance: least as 'major' });
      expect(end.body.changes, least).toEqual([]);
    }
  });

  it('combines min_significance with company and event_type', async () => {
    const moderate = await follow({ company: 'gamma.io', min_significance: 'moderate', limit: 2 });
    expect(moderate.changes.map((change) => [change.to_version, change.event_type])).toEqual([
      ['20250105', 'plan_added'],
      ['20250201', 'price_increased'],
      ['20250401', 'price_decreased'],
    ]);
    const increases = await follow({
      company: 'gamma.io',
      event_type: 'price_increased',
      min_significance: 'moderate',
    });
    expect(increases.changes.map((change) => change.to_version)).toEqual(['20250201']);
  });

  it('refuses a min_significance it does not know, in the general shape', async () => {
    for (const query of [
      'min_significance=high',
      'min_significance=MAJOR',
      'min_significance=major&min_significance=minor',
    ]) {
      const response = await getJson<GeneralErrorBody>(api, `/api/changes?${query}`, key);
      expect(response.status, query).toBe(400);
      expect(response.body.error, query).toBe('Bad Request');
      expect(response.body.details, query).toMatchObject({ parameter: 'min_significance' });
    }
    const unknown = await getJson<GeneralErrorBody>(api, '/api/changes?min_significance=x', key);
    expect(unknown.body.details).toEqual({
      parameter: 'min_significance',
      provided: 'x',
      valid_values: ['minor', 'moderate', 'major'],
    });
  });
});
