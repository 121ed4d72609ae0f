import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiKeyScope } from '#app/access';
import { TransactionRunner } from '#app/persistence';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getJson,
  ingestAndProject,
  ISO_TIMESTAMP,
  type JsonResponse,
} from './support/catalogue-fixture.js';
import {
  countsOf as countsOfKey,
  expectThirtyOfSixtyServed,
  usageOf as usageOfKey,
  type Usage,
} from './support/metering.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';
import { waitFor } from './support/wait-for.js';

/*
 * Credits, the hourly window, the burst limit and the failed-authentication limit, seen
 * through HTTP only (docs/API.md, "Credits and limits"). Every test uses keys of its own, so the counters it
 * reads are its own; small plans make each limit reachable in a few requests.
 */

const READ_FEATURES = ['companies', 'pages', 'files', 'pricing'];
const PLANS = {
  // Cheapest first: the plan a 403 for pricing names is the first one that has it (tiny).
  starter: {
    requests_per_hour: 1_000,
    credits_per_month: 1_000,
    features: ['companies', 'pages', 'files'],
  },
  tiny: { requests_per_hour: 3, credits_per_month: 1_000, features: READ_FEATURES },
  broke: { requests_per_hour: 1_000, credits_per_month: 2, features: READ_FEATURES },
  capped: { requests_per_hour: 2, credits_per_month: 2, features: READ_FEATURES },
  thirty: { requests_per_hour: 30, credits_per_month: 1_000, features: READ_FEATURES },
  // The catalogue fixture's own keys use it.
  enterprise: {
    requests_per_hour: 10_000,
    credits_per_month: 100_000,
    features: [...READ_FEATURES, 'webhooks'],
  },
};
type PlanName = keyof typeof PLANS;

const plansDirectory = mkdtempSync(join(tmpdir(), 'metering-plans-'));
const PLANS_FILE = join(plansDirectory, 'plans.json');
writeFileSync(PLANS_FILE, JSON.stringify(PLANS));

// A key cache longer than any test: a key can only leave it by a revocation announcement.
const environment = testEnvironment({ PLANS_FILE, API_KEY_CACHE_SECONDS: '3600' });
const adminToken = environment.env.ADMIN_TOKEN!;
let api: TestApp;

const HOUR_MS = 3_600_000;
const VERSION = '20251016';
const ROUTES = {
  company: '/api/companies/meter.io',
  companies: '/api/companies',
  files: `/api/files/meter.io/version/${VERSION}`,
  pricing: `/api/pricing/meter.io?version=${VERSION}`,
};
const NOT_FOUND = {
  company: '/api/companies/nowhere.io',
  files: `/api/files/nowhere/version/${VERSION}`,
  pricing: `/api/pricing/nowhere?version=${VERSION}`,
};
const BAD_REQUEST = {
  companies: '/api/companies?limit=500',
  files: '/api/files/meter.io/version/20250231',
  pricing: '/api/pricing/meter.io?version=2025-10-16',
};

beforeAll(async () => {
  api = await startTestApp(environment.config());
  await ingestAndProject(api, [
    records.company('meter.io', { name: 'Meter' }),
    records.page('meter.io'),
    records.scrape('meter.io', '', VERSION),
    records.pricing('meter.io', '', VERSION),
  ]);
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
  rmSync(plansDirectory, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// Helpers

interface IssuedKey {
  id: string;
  key: string;
  name: string;
}

/** A 429 or 503 body in either shape: `message` on the general one, `code` on files and pricing. */
interface RefusalBody {
  error: string;
  message?: string;
  code?: string;
  details: {
    limit: number;
    remaining: number;
    reset_at: string;
    retry_after: number;
    required?: number;
    seconds_until_reset?: number;
    message?: string;
  };
  retry_after: number;
}

const METERING_HEADERS = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-credits-limit',
  'x-credits-remaining',
  'x-credits-reset',
  'ratelimit-policy',
  'ratelimit',
];

/** 00:00 UTC on the 1st of next month, when credits reset (computed here, not by the service). */
function nextCreditReset(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

function admin(
  method: string,
  path: string,
  { body, token = adminToken }: { body?: unknown; token?: string | null } = {},
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return api.request(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** A new key through the admin API; the answer is the only time it carries the key itself. */
async function issueKey(
  plan: PlanName,
  scopes: ApiKeyScope[] = ['read'],
  expiresAt?: Date,
): Promise<IssuedKey> {
  const name = `metering-${plan}-${randomUUID().slice(0, 8)}`;
  const body = {
    name,
    plan,
    scopes,
    ...(expiresAt ? { expires_at: expiresAt.toISOString() } : {}),
  };
  const response = await admin('POST', '/admin/keys', { body });
  expect(response.status).toBe(201);
  return (await response.json()) as IssuedKey;
}

const get = <T = RefusalBody>(path: string, key: string | null, headers?: Record<string, string>) =>
  getJson<T>(api, path, key, headers);

const usageOf = (key: string) => usageOfKey(api, key);
const countsOf = (key: string) => countsOfKey(api, key);

/** `count` answers of `path` that must all be 200 (each one charged). */
async function spend(key: string, count: number, path = ROUTES.companies): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    const response = await get(path, key);
    expect(response.status, `${path}: ${response.text}`).toBe(200);
  }
}

interface Counters {
  hourly: { limit: number; remaining: number };
  credits: { limit: number; remaining: number };
}

/**
 * The eight metering headers say what `expected` says; X-Credits-Reset is the next 1st at
 * 00:00 UTC, and RateLimit's `t` counts down to X-RateLimit-Reset. Returns X-RateLimit-Reset.
 */
function expectMeteringHeaders(response: JsonResponse<unknown>, expected: Counters): number {
  const header = (name: string) => response.headers.get(name);
  const { hourly, credits } = expected;
  expect(header('x-ratelimit-limit')).toBe(String(hourly.limit));
  expect(header('x-ratelimit-remaining')).toBe(String(hourly.remaining));
  expect(header('x-credits-limit')).toBe(String(credits.limit));
  expect(header('x-credits-remaining')).toBe(String(credits.remaining));
  expect(header('x-credits-reset')).toBe(String(nextCreditReset().getTime() / 1000));
  expect(header('ratelimit-policy')).toBe(`"hourly";q=${hourly.limit};w=3600`);
  const state = /^"hourly";r=(\d+);t=(\d+)$/.exec(header('ratelimit') ?? '');
  expect(state, `RateLimit: ${header('ratelimit')}`).not.toBeNull();
  expect(Number(state![1])).toBe(hourly.remaining);
  const reset = Number(header('x-ratelimit-reset'));
  expect(Number.isInteger(reset), `X-RateLimit-Reset: ${header('x-ratelimit-reset')}`).toBe(true);
  // Both name the window's end: reset - t is when the answer was made (loosely: no speed test).
  const secondsLeft = Number(state![2]);
  expect(secondsLeft).toBeLessThanOrEqual(3600);
  expect(Math.abs(reset - secondsLeft - Date.now() / 1000)).toBeLessThan(60);
  return reset;
}

function expectNoMeteringHeaders(response: JsonResponse<unknown>): void {
  for (const name of METERING_HEADERS) expect(response.headers.get(name), name).toBeNull();
}

/** A key on `plan` that has spent `used` of its window and credits. */
const counters = (plan: PlanName, used: number, creditsUsed = used): Counters => ({
  hourly: {
    limit: PLANS[plan].requests_per_hour,
    remaining: Math.max(0, PLANS[plan].requests_per_hour - used),
  },
  credits: {
    limit: PLANS[plan].credits_per_month,
    remaining: Math.max(0, PLANS[plan].credits_per_month - creditsUsed),
  },
});

/** retry_after is the same at the top level, in details, and in Retry-After; returns it. */
function expectRetryAfter(response: JsonResponse<RefusalBody>): number {
  const seconds = response.body.retry_after;
  expect(Number.isInteger(seconds) && seconds >= 1, `retry_after ${seconds}`).toBe(true);
  expect(response.body.details.retry_after).toBe(seconds);
  expect(response.headers.get('retry-after')).toBe(String(seconds));
  return seconds;
}

// ---------------------------------------------------------------------------------------------

describe('rate-limit and credit headers', () => {
  it('on 200s: remaining falls by one per charged answer; the window ends an hour after the first', async () => {
    const { key } = await issueKey('tiny');
    const before = Date.now();
    const first = await get(ROUTES.company, key);
    const after = Date.now();
    expect(first.status).toBe(200);
    const reset = expectMeteringHeaders(first, counters('tiny', 1));
    expect(reset * 1000).toBeGreaterThanOrEqual(before + HOUR_MS);
    expect(reset * 1000).toBeLessThanOrEqual(Math.ceil((after + HOUR_MS) / 1000) * 1000);

    const files = await get(ROUTES.files, key);
    expect(files.status).toBe(200);
    expect(expectMeteringHeaders(files, counters('tiny', 2))).toBe(reset);
    const pricing = await get(ROUTES.pricing, key);
    expect(pricing.status).toBe(200);
    expect(expectMeteringHeaders(pricing, counters('tiny', 3))).toBe(reset);

    // The window is the one the usage route shows.
    const usage = await usageOf(key);
    expect(Math.ceil(Date.parse(usage.hourly.reset_at!) / 1000)).toBe(reset);
    expect(Date.parse(usage.hourly.window_started_at!)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(usage.hourly.window_started_at!)).toBeLessThanOrEqual(after);
  });

  it('on 404, 400, 403 (plan and scope) and 429 answers to a valid key', async () => {
    const { key } = await issueKey('tiny');
    await spend(key, 1);
    const reset = Number((await get(ROUTES.company, key)).headers.get('x-ratelimit-reset'));
    const afterTwo = counters('tiny', 2);
    for (const path of [...Object.values(NOT_FOUND), ...Object.values(BAD_REQUEST)]) {
      const response = await get(path, key);
      expect([400, 404], path).toContain(response.status);
      expect(expectMeteringHeaders(response, afterTwo), path).toBe(reset);
    }

    // Refused before any charge: no window is open, so it would end an hour from now.
    const starter = await issueKey('starter');
    const before = Date.now();
    const planRefused = await get(ROUTES.pricing, starter.key);
    expect(planRefused.status).toBe(403);
    expect(planRefused.body).toMatchObject({ code: 'PLAN_REQUIRED' });
    const noWindowReset = expectMeteringHeaders(planRefused, counters('starter', 0));
    expect(noWindowReset * 1000).toBeGreaterThanOrEqual(before + HOUR_MS);

    const ingestOnly = await issueKey('tiny', ['ingest']);
    for (const path of [ROUTES.companies, ROUTES.files]) {
      const scopeRefused = await get(path, ingestOnly.key);
      expect(scopeRefused.status, path).toBe(403);
      expect(scopeRefused.body.details).toMatchObject({ required_scope: 'read' });
      expectMeteringHeaders(scopeRefused, counters('tiny', 0));
    }

    await spend(key, 1);
    const limited = await get(ROUTES.companies, key);
    expect(limited.status).toBe(429);
    expect(expectMeteringHeaders(limited, counters('tiny', 3))).toBe(reset);
  });

  it('on no 401: a missing, malformed, unknown or revoked key learns nothing of any counter', async () => {
    const revoked = await issueKey('tiny');
    await spend(revoked.key, 1);
    expect((await admin('DELETE', `/admin/keys/${revoked.id}`)).status).toBe(204);
    const unknown = `pi_${'A'.repeat(43)}`;
    for (const key of [null, 'not-a-key', unknown, revoked.key]) {
      for (const path of [ROUTES.companies, ROUTES.files]) {
        const response = await get(path, key);
        expect(response.status, `${path} with ${key}`).toBe(401);
        expectNoMeteringHeaders(response);
      }
    }
  });
});

describe('only 2xx answers are charged', () => {
  it('a 404, a 400 or a 403 gives back the hourly count and the credit', async () => {
    const { key } = await issueKey('tiny');
    const ingestOnly = await issueKey('tiny', ['ingest']);
    const starter = await issueKey('starter');
    for (const path of [...Object.values(NOT_FOUND), ...Object.values(BAD_REQUEST)]) {
      const response = await get(path, key);
      expect([400, 404], path).toContain(response.status);
      expectMeteringHeaders(response, counters('tiny', 0));
    }
    expect((await get(ROUTES.pricing, starter.key)).status).toBe(403);
    expect((await get(ROUTES.companies, ingestOnly.key)).status).toBe(403);

    expect(await countsOf(key)).toEqual({ hourly: 0, credits: 0 });
    expect(await countsOf(starter.key)).toEqual({ hourly: 0, credits: 0 });
    expect(await countsOf(ingestOnly.key)).toEqual({ hourly: 0, credits: 0 });
    // The whole window is still there: three answers of a plan of three an hour.
    await spend(key, 1, ROUTES.company);
    await spend(key, 1, ROUTES.files);
    await spend(key, 1, ROUTES.pricing);
    expect((await get(ROUTES.company, key)).status).toBe(429);
  });

  // The window opens at the first *counted* request, and a 4xx is given back, so a
  // key whose only requests failed has no window (else its window is anchored at a 404).
  it('a request given back opens no hourly window', async () => {
    const { key } = await issueKey('tiny');
    expect((await get(NOT_FOUND.company, key)).status).toBe(404);
    expect((await get(BAD_REQUEST.files, key)).status).toBe(400);
    const { hourly } = await usageOf(key);
    expect(hourly).toEqual({
      limit: 3,
      used: 0,
      remaining: 3,
      window_started_at: null,
      reset_at: null,
    });
  });

  it('ingestion (credit cost 0) is never charged, though its answers carry the counters', async () => {
    const { key } = await issueKey('tiny', ['read', 'ingest']);
    for (let batch = 0; batch < 4; batch += 1) {
      const response = await api.request('/ingest/records', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify([records.company(`ingested-${batch}-${randomUUID().slice(0, 8)}.io`)]),
      });
      expect(response.status).toBe(202);
      expect(response.headers.get('x-ratelimit-remaining')).toBe('3');
      expect(response.headers.get('x-credits-remaining')).toBe('1000');
    }
    expect(await countsOf(key)).toEqual({ hourly: 0, credits: 0 });
  });

  it('a 304 Not Modified is not charged, and says so in its headers', async () => {
    const { key } = await issueKey('tiny');
    let used = 0;
    for (const path of [ROUTES.files, ROUTES.pricing]) {
      const first = await get(path, key);
      used += 1;
      expect(first.status, path).toBe(200);
      const etag = first.headers.get('etag');
      expect(etag, path).toMatch(/^"[^"]+"$/);
      for (let again = 0; again < 3; again += 1) {
        const notModified = await get(path, key, { 'if-none-match': etag! });
        expect(notModified.status, path).toBe(304);
        expectMeteringHeaders(notModified, counters('tiny', used));
      }
    }
    expect(await countsOf(key)).toEqual({ hourly: 2, credits: 2 });
  });

  it('a revalidation is refused as a charge would be once the hourly window is used up', async () => {
    const { key } = await issueKey('tiny');
    const first = await get(ROUTES.files, key);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    // Unchanged (the read lane keeps the answer, so its ETag is known before metering): a 304.
    expect((await get(ROUTES.files, key, { 'if-none-match': etag })).status).toBe(304);
    expect(await countsOf(key)).toEqual({ hourly: 1, credits: 1 });
    // A tag the answer no longer has is a 200, and charged.
    const stale = await get(ROUTES.files, key, { 'if-none-match': '"an-older-tag"' });
    expect(stale.status).toBe(200);
    expect(await countsOf(key)).toEqual({ hourly: 2, credits: 2 });
    await spend(key, 1, ROUTES.pricing);
    const refused = await get(ROUTES.files, key, { 'if-none-match': etag });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(await countsOf(key)).toEqual({ hourly: 3, credits: 3 });
  });
});

describe('GET /api/usage', () => {
  it("shows the key's plan, window, credits and burst limit, and counts nothing itself", async () => {
    const { key } = await issueKey('tiny');
    const fresh: Usage = {
      plan: 'tiny',
      hourly: { limit: 3, used: 0, remaining: 3, window_started_at: null, reset_at: null },
      credits: {
        limit: 1_000,
        used: 0,
        remaining: 1_000,
        reset_at: nextCreditReset().toISOString(),
      },
      burst: { limit_per_second: 20 },
    };
    for (let call = 0; call < 10; call += 1) expect(await usageOf(key)).toEqual(fresh);

    const before = Date.now();
    await spend(key, 1);
    const after = Date.now();
    const counted = await usageOf(key);
    expect(counted).toMatchObject({
      plan: 'tiny',
      hourly: { limit: 3, used: 1, remaining: 2 },
      credits: { limit: 1_000, used: 1, remaining: 999, reset_at: fresh.credits.reset_at },
    });
    const start = Date.parse(counted.hourly.window_started_at!);
    expect(counted.hourly.window_started_at).toMatch(ISO_TIMESTAMP);
    expect(start).toBeGreaterThanOrEqual(before);
    expect(start).toBeLessThanOrEqual(after);
    expect(Date.parse(counted.hourly.reset_at!)).toBe(start + HOUR_MS);

    for (let call = 0; call < 10; call += 1) {
      const response = await getJson<Usage>(api, '/api/usage', key);
      expect(response.body).toEqual(counted);
      expectMeteringHeaders(response, counters('tiny', 1));
    }
    // Two requests of the window's three are still there.
    await spend(key, 2);
    expect((await get(ROUTES.companies, key)).status).toBe(429);
  });

  it('answers a key that has only the ingest scope', async () => {
    const { key } = await issueKey('broke', ['ingest']);
    expect(await usageOf(key)).toMatchObject({
      plan: 'broke',
      hourly: { limit: 1_000, used: 0 },
      credits: { limit: 2, used: 0, remaining: 2 },
    });
  });

  it('needs a key', async () => {
    const response = await get('/api/usage', null);
    expect(response.status).toBe(401);
    expectNoMeteringHeaders(response);
  });

  it('answers 403 for a key whose plan was taken out of the configuration', async () => {
    const { id, key } = await issueKey('tiny');
    await api.app
      .get(TransactionRunner)
      .query(`UPDATE api_keys SET plan = 'retired' WHERE id = $1`, [id]);
    const response = await get('/api/usage', key);
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({
      error: 'Forbidden',
      details: { current_plan: 'retired', required_plan: 'starter' },
    });
  });
});

describe('GET /admin/keys/{id}/usage', () => {
  it('needs the admin token', async () => {
    const { id } = await issueKey('tiny');
    for (const token of [null, 'wrong-admin-token-0123456789']) {
      const response = await admin('GET', `/admin/keys/${id}/usage`, { token });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: 'Unauthorized' });
    }
  });

  it('answers 404 for an unknown id', async () => {
    const id = randomUUID();
    const response = await admin('GET', `/admin/keys/${id}/usage`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'Not Found', details: { id } });
  });

  it('shows the counters the key sees, with its id, name and status, and counts nothing', async () => {
    const issued = await issueKey('tiny');
    await spend(issued.key, 2);
    expect((await get(NOT_FOUND.company, issued.key)).status).toBe(404);
    const own = await usageOf(issued.key);
    expect(own.hourly.used).toBe(2);
    for (let call = 0; call < 5; call += 1) {
      const response = await admin('GET', `/admin/keys/${issued.id}/usage`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        id: issued.id,
        name: issued.name,
        status: 'active',
        ...own,
      });
    }
    expect(await usageOf(issued.key)).toEqual(own);

    // A revoked key keeps its counters.
    expect((await admin('DELETE', `/admin/keys/${issued.id}`)).status).toBe(204);
    const revoked = await admin('GET', `/admin/keys/${issued.id}/usage`);
    expect(await revoked.json()).toEqual({
      id: issued.id,
      name: issued.name,
      status: 'revoked',
      ...own,
    });
  });
});

describe('the hourly window', () => {
  it('is refused past its limit with 429 in the general shape on companies', async () => {
    const { key } = await issueKey('tiny');
    await spend(key, 3);
    const { hourly } = await usageOf(key);
    const refused = await get(ROUTES.company, key);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: 'Rate limit exceeded',
      message: expect.stringContaining('Hourly limit of 3 requests'),
      details: {
        limit: 3,
        remaining: 0,
        reset_at: hourly.reset_at,
        retry_after: expect.any(Number),
      },
      retry_after: expect.any(Number),
    });
    const seconds = expectRetryAfter(refused);
    // Waiting that long reaches the window's end, and not much later.
    const end = Date.parse(hourly.reset_at!);
    expect(Date.now() + seconds * 1000).toBeGreaterThanOrEqual(end);
    expect(seconds).toBeLessThanOrEqual(3600);
    // A refused request is not counted.
    expect(await countsOf(key)).toEqual({ hourly: 3, credits: 3 });
  });

  it('is refused with RATE_LIMIT_EXCEEDED in the coded shape on files and pricing', async () => {
    const { key } = await issueKey('tiny');
    await spend(key, 3, ROUTES.files);
    const { hourly } = await usageOf(key);
    for (const path of [ROUTES.files, ROUTES.pricing]) {
      const refused = await get(path, key);
      expect(refused.status, path).toBe(429);
      expect(refused.body, path).toEqual({
        error: expect.stringContaining('Hourly limit of 3 requests'),
        code: 'RATE_LIMIT_EXCEEDED',
        details: {
          limit: 3,
          remaining: 0,
          reset_at: hourly.reset_at,
          retry_after: expect.any(Number),
        },
        retry_after: expect.any(Number),
      });
      expectRetryAfter(refused);
    }
    expect(await countsOf(key)).toEqual({ hourly: 3, credits: 3 });
  });

  it('admits exactly the limit of concurrent requests, and counts only those', async () => {
    const { key } = await issueKey('tiny');
    const answers = await Promise.all(Array.from({ length: 10 }, () => get(ROUTES.companies, key)));
    const statuses = answers.map((response) => response.status).sort();
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429, 429, 429, 429]);
    expect(await countsOf(key)).toEqual({ hourly: 3, credits: 3 });
  });

  // At the default burst limit (20 a second): charged answers take none of it.
  it('answers 60 concurrent requests of a 30-an-hour key with exactly 30 x 200 and 30 x 429', async () => {
    const { key } = await issueKey('thirty');
    await expectThirtyOfSixtyServed(api, key, ROUTES.files);
  });

  it('answers every one of 60 concurrent requests of a key with room in its window', async () => {
    const { key } = await issueKey('enterprise');
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        get(index % 2 ? ROUTES.companies : ROUTES.pricing, key),
      ),
    );
    expect(answers.map((response) => response.status)).toEqual(Array(60).fill(200));
    expect(await countsOf(key)).toEqual({ hourly: 60, credits: 60 });
  });
});

describe('monthly credits', () => {
  it('are refused with INSUFFICIENT_CREDITS and the documented details on files and pricing', async () => {
    const { key } = await issueKey('broke');
    await spend(key, 2, ROUTES.pricing);
    const resetAt = nextCreditReset().toISOString();
    for (const path of [ROUTES.files, ROUTES.pricing]) {
      const refused = await get(path, key);
      expect(refused.status, path).toBe(429);
      expect(refused.body, path).toEqual({
        error: expect.stringContaining(resetAt),
        code: 'INSUFFICIENT_CREDITS',
        details: {
          limit: 2,
          remaining: 0,
          required: 1,
          reset_at: resetAt,
          seconds_until_reset: expect.any(Number),
          message: expect.stringContaining(resetAt),
          retry_after: expect.any(Number),
        },
        retry_after: expect.any(Number),
      });
      const seconds = expectRetryAfter(refused);
      expect(refused.body.details.seconds_until_reset).toBe(seconds);
      // Waiting that long reaches the 1st, and not a minute later.
      const untilReset = (Date.parse(resetAt) - Date.now()) / 1000;
      expect(seconds).toBeGreaterThanOrEqual(Math.floor(untilReset));
      expect(seconds).toBeLessThanOrEqual(Math.ceil(untilReset) + 60);
      expectMeteringHeaders(refused, counters('broke', 2));
    }
    expect(await countsOf(key)).toEqual({ hourly: 2, credits: 2 });
  });

  it('are refused in the general shape on companies', async () => {
    const { key } = await issueKey('broke');
    await spend(key, 2);
    const refused = await get(ROUTES.company, key);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: 'Rate limit exceeded',
      message: expect.stringContaining('No credits left'),
      details: {
        limit: 2,
        remaining: 0,
        reset_at: nextCreditReset().toISOString(),
        retry_after: expect.any(Number),
      },
      retry_after: expect.any(Number),
    });
    expectRetryAfter(refused);
  });

  it('win over the hourly window when both are spent', async () => {
    const { key } = await issueKey('capped');
    await spend(key, 2);
    expect(await usageOf(key)).toMatchObject({
      hourly: { remaining: 0 },
      credits: { remaining: 0 },
    });
    const coded = await get(ROUTES.files, key);
    expect(coded.status).toBe(429);
    expect(coded.body.code).toBe('INSUFFICIENT_CREDITS');
    const general = await get(ROUTES.companies, key);
    expect(general.status).toBe(429);
    expect(general.body.message).toContain('No credits left');
    expect(general.body.details.reset_at).toBe(nextCreditReset().toISOString());
  });
});

describe('the key cache', () => {
  let second: TestApp;

  beforeAll(async () => {
    // A second API process on the same database and Redis, as in a deployment of several.
    second = await startTestApp(environment.config(), { withWorker: false });
  });

  afterAll(async () => {
    await second?.close();
  });

  it('serves a key revoked behind its back (in the database only) from memory', async () => {
    const issued = await issueKey('enterprise');
    expect((await get(ROUTES.company, issued.key)).status).toBe(200);
    await api.app
      .get(TransactionRunner)
      .query('UPDATE api_keys SET revoked_at = $1 WHERE id = $2', [
        new Date().toISOString(),
        issued.id,
      ]);
    const listed = await admin('GET', `/admin/keys/${issued.id}/usage`);
    expect(await listed.json()).toMatchObject({ status: 'revoked' });
    // No database read: the process still trusts its copy.
    expect((await get(ROUTES.company, issued.key)).status).toBe(200);
  });

  it('still refuses a cached key once it has expired', async () => {
    const expiresAt = new Date(Date.now() + 2_000);
    const issued = await issueKey('enterprise', ['read'], expiresAt);
    expect((await get(ROUTES.company, issued.key)).status).toBe(200);
    await new Promise((next) => setTimeout(next, expiresAt.getTime() - Date.now() + 50));
    const refused = await get(ROUTES.company, issued.key);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ message: 'The API key has expired' });
  });

  it('forgets a key revoked through the admin API at once', async () => {
    const issued = await issueKey('enterprise');
    expect((await get(ROUTES.company, issued.key)).status).toBe(200);
    expect((await admin('DELETE', `/admin/keys/${issued.id}`)).status).toBe(204);
    const refused = await get(ROUTES.company, issued.key);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({
      error: 'Unauthorized',
      message: 'The API key has been revoked',
    });
  });

  it('is told by another process that revoked a key (Redis pub/sub)', async () => {
    const issued = await issueKey('enterprise');
    const onSecond = () => getJson(second, ROUTES.company, issued.key);
    expect((await onSecond()).status).toBe(200);
    expect((await admin('DELETE', `/admin/keys/${issued.id}`)).status).toBe(204);
    // The second process's copy would live an hour: only the announcement can end it.
    await waitFor(
      'the second process to refuse the revoked key',
      async () => ((await onSecond()).status === 401 ? true : undefined),
      10_000,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// The burst and failed-authentication limits at their defaults: an app of their own, Redis
// namespace (QUEUE_PREFIX) and database, whose test client does not wait out a burst refusal.

describe('the burst limit and the failed-authentication limit, at their defaults', () => {
  const strict = testEnvironment({
    // Believe the test's X-Forwarded-For, so that each test fails from an address of its own.
    TRUST_PROXY: '127.0.0.1',
  });
  const { burstPerSecond: BURST, authFailuresPerMinute: FAILURES } = strict.config().limits;
  /** Uncharged requests fired at once: twice what the bucket holds, so some must be refused. */
  const FLOOD = 2 * BURST;
  let limited: TestApp;

  beforeAll(async () => {
    limited = await startTestApp(strict.config(), { waitOutBursts: false });
    await ingestAndProject(limited, [
      records.company('meter.io', { name: 'Meter' }),
      records.page('meter.io'),
      records.scrape('meter.io', '', VERSION),
    ]);
  });

  afterAll(async () => {
    await limited?.close();
    await strict.cleanup();
  });

  /** Fires `count` requests at once with one key. */
  const burst = (path: string, key: string, count: number) =>
    Promise.all(Array.from({ length: count }, () => getJson<RefusalBody>(limited, path, key)));

  function expectBurstRefusal(response: JsonResponse<RefusalBody>) {
    expect(response.body).toMatchObject({
      error: 'Rate limit exceeded',
      message: expect.stringContaining(`${BURST} requests a second`),
      details: { limit: BURST, remaining: 0 },
    });
    expect(response.body.details.reset_at).toMatch(ISO_TIMESTAMP);
    expectRetryAfter(response);
  }

  /**
   * What a bucket that frees one unit every `periodMs` has freed since `started`, at most: the
   * test's clock runs from before the first request to after the last answer, so it never
   * counts fewer than the server's.
   */
  const refilledSince = (started: number, periodMs: number) =>
    Math.floor((Date.now() - started) / periodMs);
  /** Floods, or rounds of failures, a helper tries before it gives up with a clear error. */
  const MOST_TRIES = 5;

  /** The bucket frees one request every 50 ms at the default (20 a second). */
  const BURST_REFILL_MS = 1000 / BURST;

  /**
   * Sends `flood()` (requests fired at once) until one of its answers is a 429: a machine slow
   * enough to take a second over a flood refills the bucket meanwhile. Over all the floods, at
   * least the burst got `status`, never more than the burst and what refilled since the first,
   * and every other answer is a 429. Answers the refusals.
   */
  async function floodUntilRefused(
    flood: () => Promise<JsonResponse<RefusalBody>[]>,
    status: number,
  ): Promise<JsonResponse<RefusalBody>[]> {
    const started = Date.now();
    const answers: JsonResponse<RefusalBody>[] = [];
    for (let round = 1; round <= MOST_TRIES; round += 1) {
      answers.push(...(await flood()));
      const refills = refilledSince(started, BURST_REFILL_MS);
      const admitted = answers.filter((response) => response.status === status).length;
      const refused = answers.filter((response) => response.status === 429);
      expect(admitted).toBeGreaterThanOrEqual(BURST);
      expect(admitted, `admitted within ${refills} refills`).toBeLessThanOrEqual(BURST + refills);
      expect(refused.length).toBe(answers.length - admitted);
      if (refused.length > 0) return refused;
    }
    throw new Error(`${MOST_TRIES} floods met no burst refusal`);
  }

  /** Floods of uncharged requests are bounded, each refusal in its documented body. */
  async function expectBurstBounded(
    flood: () => Promise<JsonResponse<RefusalBody>[]>,
    status: number,
  ) {
    const refused = await floodUntilRefused(flood, status);
    for (const response of refused) expectBurstRefusal(response);
    return refused;
  }

  /** The key's usage, once the burst bucket has room again. */
  const settledUsage = (key: string) =>
    waitFor('the burst limit to admit a request', async () => {
      const response = await getJson<Usage>(limited, '/api/usage', key);
      return response.status === 200 ? response.body : undefined;
    });

  describe('the burst limit', () => {
    it('bounds uncharged requests: twice the burst at once to /api/usage meet some 429s', async () => {
      const key = await limited.createKey(['read']);
      const refused = await expectBurstBounded(() => burst('/api/usage', key, FLOOD), 200);
      // A refusal of a valid key still tells its counters (the default enterprise plan).
      for (const response of refused)
        expect(response.headers.get('x-ratelimit-limit')).toBe('10000');
      expect((await settledUsage(key)).burst).toEqual({ limit_per_second: BURST });
    });

    it('never bounds charged answers: twice the burst at once are all answered 200 and charged', async () => {
      const key = await limited.createKey(['read']);
      const answers = await burst(ROUTES.companies, key, FLOOD);
      expect(answers.map((response) => response.status)).toEqual(Array(FLOOD).fill(200));
      const usage = await settledUsage(key);
      expect(usage.hourly.used).toBe(FLOOD);
      expect(usage.credits.used).toBe(FLOOD);
    });

    it('bounds a flood of uncharged 404s from one key, which costs the key nothing', async () => {
      const key = await limited.createKey(['read']);
      await expectBurstBounded(() => burst('/api/companies/no-such-company', key, FLOOD), 404);
      const usage = await settledUsage(key);
      expect(usage.hourly.used).toBe(0);
      expect(usage.credits.used).toBe(0);
    });

    it("still answers a key's charged reads while its uncharged ones are refused", async () => {
      const key = await limited.createKey(['read']);
      await expectBurstBounded(async () => {
        const [notFound, found] = await Promise.all([
          burst('/api/companies/no-such-company', key, FLOOD),
          burst(ROUTES.companies, key, FLOOD),
        ]);
        expect(found.map((response) => response.status)).toEqual(Array(FLOOD).fill(200));
        return notFound;
      }, 404);
    });

    it('bounds a flood of 304s, in the coded shape on files, without charging', async () => {
      const key = await limited.createKey(['read']);
      const path = ROUTES.files;
      const first = await getJson<RefusalBody>(limited, path, key);
      // Charged, so the bucket is still full.
      const etag = first.headers.get('etag')!;
      const refused = await floodUntilRefused(
        () =>
          Promise.all(
            Array.from({ length: FLOOD }, () =>
              getJson<RefusalBody>(limited, path, key, { 'if-none-match': etag }),
            ),
          ),
        304,
      );
      for (const response of refused) {
        expect(response.body).toMatchObject({
          code: 'BURST_LIMIT_EXCEEDED',
          details: { limit: BURST, remaining: 0 },
        });
        expect(response.body).not.toHaveProperty('message');
        // A refused 304 is no longer an answer about the resource.
        expect(response.headers.get('etag')).toBeNull();
        expect(response.headers.get('cache-control')).toBeNull();
        expectRetryAfter(response);
      }
      const usage = await settledUsage(key);
      expect(usage.hourly.used).toBe(1);
      expect(usage.credits.used).toBe(1);
    });
  });

  describe('failed authentications', () => {
    const BAD_KEY = `pi_${'B'.repeat(43)}`;
    /** A client address of the test's own (the app trusts X-Forwarded-For from 127.0.0.1). */
    const from = (address: string) => ({ 'x-forwarded-for': address });
    const attempt = (path: string, key: string | null, address?: string) =>
      getJson<RefusalBody>(limited, path, key, address ? from(address) : {});
    const adminWith = (token: string, address: string) =>
      getJson<RefusalBody>(limited, '/admin/keys', null, {
        authorization: `Bearer ${token}`,
        ...from(address),
      });

    function expectTooMany(response: JsonResponse<RefusalBody>) {
      expect(response.status).toBe(429);
      expect(response.body.details).toMatchObject({ limit: FAILURES, remaining: 0 });
      expect(response.body.details.reset_at).toMatch(ISO_TIMESTAMP);
      expectRetryAfter(response);
      expectNoMeteringHeaders(response);
    }

    /** The limit frees one failure every 2 s at the default (30 a minute). */
    const FAILURE_REFILL_MS = 60_000 / FAILURES;

    /**
     * The failures of one client address, `fail(n)` the n-th of them. The first FAILURES are
     * admitted whatever the pace; after them, one more for each refill since the first, which a
     * slow machine makes more than none.
     */
    function failuresFrom(fail: (failure: number) => Promise<JsonResponse<RefusalBody>>) {
      const started = Date.now();
      let failures = 0;

      /**
       * Fails until refused, and answers the refusal, whose reset_at (when the next failure is
       * freed) is at most one refill away.
       */
      async function untilRefused(): Promise<JsonResponse<RefusalBody>> {
        for (let attempt = 1; attempt <= 2 * FAILURES; attempt += 1) {
          const response = await fail(failures + 1);
          if (response.status === 429) {
            expect(failures, 'failures admitted before a refusal').toBeGreaterThanOrEqual(FAILURES);
            expectTooMany(response);
            const freedIn = Date.parse(response.body.details.reset_at) - Date.now();
            expect(freedIn).toBeLessThanOrEqual(FAILURE_REFILL_MS);
            return response;
          }
          failures += 1;
          const refills = refilledSince(started, FAILURE_REFILL_MS);
          expect(response.status, `failure ${failures}`).toBe(401);
          expect(failures, `failures admitted within ${refills} refills`).toBeLessThanOrEqual(
            FAILURES + refills,
          );
        }
        throw new Error(`${2 * FAILURES} attempts in a row met no refusal`);
      }

      /**
       * What `request` answers while the address is refused: sent right after a refusal. An
       * answer that came back after the refusal's reset_at shows nothing (a failure may have
       * been freed meanwhile), so then the round is tried again.
       */
      async function whileRefused<T>(request: () => Promise<T>): Promise<T> {
        for (let round = 1; round <= MOST_TRIES; round += 1) {
          const freedAt = Date.parse((await untilRefused()).body.details.reset_at);
          const answer = await request();
          if (Date.now() < freedAt) return answer;
        }
        throw new Error(`no answer came back before a failure was freed, in ${MOST_TRIES} rounds`);
      }

      return { untilRefused, whileRefused };
    }

    /** The failures of a bad key from `address` (the socket's own when none). */
    const badKeyFrom = (path: string, address?: string) =>
      failuresFrom(() => attempt(path, BAD_KEY, address));

    it('answers 429 past the limit a minute (general shape), yet still admits a key it already checked', async () => {
      const known = await limited.createKey(['read']);
      expect((await attempt(ROUTES.companies, known)).status).toBe(200);
      const failures = badKeyFrom(ROUTES.companies);
      const refused = await failures.untilRefused();
      expect(refused.body).toMatchObject({
        error: 'Rate limit exceeded',
        message: expect.stringContaining('failed authentications'),
      });

      // A key this process has checked is served from its cache: no database read to protect.
      const admitted = await failures.whileRefused(() => attempt(ROUTES.companies, known));
      expect(admitted.status).toBe(200);
      expect(admitted.headers.get('x-ratelimit-limit')).toBe('10000');
      expect((await attempt('/api/usage', known)).status).toBe(200);
      // A key it has not seen would need one: refused like a guess, until the address may fail again.
      // A new key each round: a round answered too late may have admitted, and so cached, its key.
      expectTooMany(
        await failures.whileRefused(async () =>
          attempt(ROUTES.companies, await limited.createKey(['read'])),
        ),
      );
    });

    it('counts a request with no key at all as a failure', async () => {
      await failuresFrom(() => attempt(ROUTES.companies, null, '198.51.100.5')).untilRefused();
    });

    it('answers TOO_MANY_FAILED_AUTHENTICATIONS in the coded shape on files', async () => {
      const refused = await badKeyFrom(ROUTES.files, '198.51.100.10').untilRefused();
      expect(refused.body).toMatchObject({ code: 'TOO_MANY_FAILED_AUTHENTICATIONS' });
      expect(refused.body).not.toHaveProperty('message');
    });

    it('counts per client address', async () => {
      await badKeyFrom(ROUTES.companies, '198.51.100.20').untilRefused();
      expect((await attempt(ROUTES.companies, BAD_KEY, '198.51.100.21')).status).toBe(401);
    });

    it('counts an IPv6 address by its /64: its addresses share one limit, another /64 has its own', async () => {
      // Random interface identifiers, as a host's temporary addresses have (RFC 8981).
      const inTheSlash64 = () =>
        `2001:db8:64:1:${randomBytes(8).toString('hex').match(/.{4}/g)!.join(':')}`;
      const failures = failuresFrom(() => attempt(ROUTES.companies, BAD_KEY, inTheSlash64()));
      await failures.untilRefused();
      const [refused, admin] = await failures.whileRefused(() =>
        Promise.all([
          Promise.all(
            Array.from({ length: 10 }, () => attempt(ROUTES.companies, BAD_KEY, inTheSlash64())),
          ),
          // The admin token counts by the same rule: even the right one is refused from that /64.
          adminWith(strict.env.ADMIN_TOKEN!, '2001:db8:64:1:ad::1'),
        ]),
      );
      for (const response of refused) expectTooMany(response);
      expect(admin.status).toBe(429);

      expect((await attempt(ROUTES.companies, BAD_KEY, '2001:db8:64:2::1')).status).toBe(401);
      expect((await adminWith(strict.env.ADMIN_TOKEN!, '2001:db8:64:2::ad')).status).toBe(200);
    });

    it('counts an IPv4-mapped IPv6 address as its IPv4 address', async () => {
      const failures = failuresFrom((failure) =>
        attempt(ROUTES.companies, BAD_KEY, failure % 2 ? '::ffff:198.51.100.40' : '198.51.100.40'),
      );
      await failures.untilRefused();
      expectTooMany(
        await failures.whileRefused(() => attempt(ROUTES.companies, BAD_KEY, '198.51.100.40')),
      );
      expectTooMany(
        await failures.whileRefused(() =>
          attempt(ROUTES.companies, BAD_KEY, '::ffff:198.51.100.40'),
        ),
      );
    });

    it('counts wrong admin tokens, against the same budget as wrong keys', async () => {
      const address = '198.51.100.30';
      const wrongToken = () => adminWith('wrong-admin-token-0123456789', address);
      // The limit's worth of wrong tokens, then wrong keys: refused once what refilled meanwhile
      // is spent (at once, on a machine that is not slow).
      const failures = failuresFrom((failure) =>
        failure <= FAILURES ? wrongToken() : attempt(ROUTES.companies, BAD_KEY, address),
      );
      await failures.untilRefused();
      const refused = await failures.whileRefused(wrongToken);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(refused.body).toMatchObject({ error: 'Rate limit exceeded' });
      // Past the limit even the right token is refused, so a guesser learns nothing from the
      // answer; from another address it works.
      expect(
        (await failures.whileRefused(() => adminWith(strict.env.ADMIN_TOKEN!, address))).status,
      ).toBe(429);
      expect((await adminWith(strict.env.ADMIN_TOKEN!, '198.51.100.31')).status).toBe(200);
    });
  });
});
