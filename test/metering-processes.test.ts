import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiKeyRepository, buildDataSourceOptions, TransactionRunner } from '#app/persistence';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiReady,
  showOutputOnFailure,
  startApiProcess,
  stopApiProcess,
  type ApiProcess,
} from './support/api-process.js';
import { testEnvironment } from './support/test-environment.js';
import { waitFor } from './support/wait-for.js';

/**
 * Two real API processes (`node dist/apps/api/src/main.js`) share one database and one Redis.
 * Counting happens in Redis, so a key's plan holds exactly across processes however requests
 * are spread over them; a revocation made through one process reaches the other through Redis
 * pub/sub although both keep keys cached for five minutes (docs/API.md, "Authentication").
 */

const FEATURES = ['companies', 'pages', 'files', 'pricing'];

const plansDirectory = mkdtempSync(join(tmpdir(), 'pricing-plans-'));
const plansFile = join(plansDirectory, 'plans.json');
writeFileSync(
  plansFile,
  JSON.stringify({
    hundred: { requests_per_hour: 100, credits_per_month: 100_000, features: FEATURES },
    five: { requests_per_hour: 1_000, credits_per_month: 5, features: FEATURES },
    roomy: { requests_per_hour: 100_000, credits_per_month: 100_000, features: FEATURES },
  }),
);

const environment = testEnvironment({
  PLANS_FILE: plansFile,
  // Far longer than any test: a process that drops a revoked key fast was told by pub/sub.
  API_KEY_CACHE_SECONDS: '300',
});
const adminToken = environment.env.ADMIN_TOKEN!;

const processes: ApiProcess[] = [];
const startApi = async (name: string) => {
  const api = await startApiProcess(name, environment.env);
  processes.push(api);
  return api;
};

let a: ApiProcess;
let b: ApiProcess;

beforeAll(async () => {
  // main.js migrates at start. On PostgreSQL an advisory lock serialises processes that start
  // together; on SQLite nothing does (two that migrate a fresh file at once race, and the loser
  // fails with "table ... already exists" until TypeORM's retry three seconds later), so A
  // migrates alone before B starts.
  a = await startApi('api A');
  await apiReady(a);
  b = await startApi('api B');
  await apiReady(b);
}, 120_000);

afterAll(async () => {
  await Promise.all(processes.map(stopApiProcess));
  await environment.cleanup();
  rmSync(plansDirectory, { recursive: true, force: true });
}, 60_000);

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown> | null;
}

async function call(url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(url, init);
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
  };
}

const withKey = (key: string): RequestInit => ({ headers: { authorization: `Bearer ${key}` } });

async function createKey(plan: string, name = `${plan} key`): Promise<{ id: string; key: string }> {
  const created = await call(`${a.baseUrl}/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, plan, scopes: ['read'] }),
  });
  expect(created.status).toBe(201);
  return created.body as { id: string; key: string };
}

interface Usage {
  plan: string;
  hourly: { limit: number; used: number; remaining: number };
  credits: { limit: number; used: number; remaining: number; reset_at: string };
}

async function adminUsage(api: ApiProcess, id: string): Promise<Usage> {
  const answer = await call(`${api.baseUrl}/admin/keys/${id}/usage`, {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  expect(answer.status).toBe(200);
  return answer.body as unknown as Usage;
}

async function ownUsage(api: ApiProcess, key: string): Promise<Usage> {
  const answer = await call(`${api.baseUrl}/api/usage`, withKey(key));
  expect(answer.status).toBe(200);
  return answer.body as unknown as Usage;
}

/** `count` requests at once, alternately to A and B. */
function concurrently(count: number, path: string, key: string): Promise<Answer[]> {
  return Promise.all(
    Array.from({ length: count }, (_, index) =>
      call(`${(index % 2 === 0 ? a : b).baseUrl}${path}`, withKey(key)),
    ),
  );
}

function statusCounts(answers: Answer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/** 00:00 UTC on the 1st of next month, when credits reset. */
function nextCreditReset(now = new Date()): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
}

/** Marks a key revoked in the database only, as if no process had been told. */
async function revokeInDatabaseOnly(id: string): Promise<void> {
  const options = buildDataSourceOptions(environment.config().database);
  const dataSource = await new DataSource(options).initialize();
  try {
    const keys = new ApiKeyRepository(dataSource, new TransactionRunner(dataSource));
    expect(await keys.revoke(id, new Date().toISOString())).toBe(true);
  } finally {
    await dataSource.destroy();
  }
}

describe('metering across two API processes', () => {
  it('answers 200 with an empty list on an empty catalogue (a charged 2xx)', async () => {
    showOutputOnFailure(processes);
    const { id, key } = await createKey('roomy');
    for (const api of [a, b]) {
      const answer = await call(`${api.baseUrl}/api/companies`, withKey(key));
      expect(answer.status).toBe(200);
      expect(answer.body?.data).toEqual([]);
    }
    expect((await adminUsage(a, id)).credits.used).toBe(2);
  });

  it('admits exactly 100 of 500 concurrent requests at a key allowed 100 an hour', async () => {
    showOutputOnFailure(processes);
    const { id, key } = await createKey('hundred');

    const answers = await concurrently(500, '/api/companies', key);

    expect(statusCounts(answers)).toEqual({ 200: 100, 429: 400 });
    // Each admitted request was counted once: the remaining counts it saw are 99 down to 0.
    const remaining = answers
      .filter((answer) => answer.status === 200)
      .map((answer) => Number(answer.headers.get('x-ratelimit-remaining')))
      .sort((x, y) => x - y);
    expect(remaining).toEqual(Array.from({ length: 100 }, (_, index) => index));
    for (const refused of answers.filter((answer) => answer.status === 429)) {
      expect(refused.body).toMatchObject({
        error: 'Rate limit exceeded',
        message: expect.stringContaining('Hourly limit of 100'),
        details: { limit: 100, remaining: 0 },
      });
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    }

    for (const api of [a, b]) {
      const usage = await adminUsage(api, id);
      expect(usage.hourly).toMatchObject({ limit: 100, used: 100, remaining: 0 });
      expect(usage.credits).toMatchObject({ limit: 100_000, used: 100 });
      const own = await ownUsage(api, key);
      expect(own.hourly).toEqual(usage.hourly);
      expect(own.credits).toEqual(usage.credits);
    }
  });

  it('admits exactly 5 of 100 concurrent requests at a key with 5 credits left', async () => {
    showOutputOnFailure(processes);
    const { id, key } = await createKey('five');

    const answers = await concurrently(100, '/api/companies', key);

    expect(statusCounts(answers)).toEqual({ 200: 5, 429: 95 });
    const creditsRemaining = answers
      .filter((answer) => answer.status === 200)
      .map((answer) => Number(answer.headers.get('x-credits-remaining')))
      .sort((x, y) => x - y);
    expect(creditsRemaining).toEqual([0, 1, 2, 3, 4]);
    const resetAt = nextCreditReset();
    for (const refused of answers.filter((answer) => answer.status === 429)) {
      // INSUFFICIENT_CREDITS in the general shape of the companies routes (no `code`).
      expect(refused.body).toEqual({
        error: 'Rate limit exceeded',
        message: `No credits left this month: they reset at ${resetAt}`,
        details: { limit: 5, remaining: 0, reset_at: resetAt, retry_after: expect.any(Number) },
        retry_after: expect.any(Number),
      });
      expect(refused.headers.get('retry-after')).toBe(String(refused.body?.retry_after));
      expect(refused.headers.get('x-credits-remaining')).toBe('0');
    }

    // The coded shape of the pricing routes names the code itself.
    const coded = await call(`${b.baseUrl}/api/pricing/anything.io`, withKey(key));
    expect(coded.status).toBe(429);
    expect(coded.body).toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
      details: { limit: 5, remaining: 0, reset_at: resetAt, required: 1 },
    });

    for (const api of [a, b]) {
      const usage = await adminUsage(api, id);
      expect(usage.credits).toMatchObject({ limit: 5, used: 5, remaining: 0 });
      expect(usage.hourly.used).toBe(5);
    }
  });

  it('gives back every non-2xx answer: the counters end equal to the 2xx answers', async () => {
    showOutputOnFailure(processes);
    const { id, key } = await createKey('hundred');

    // 300 at once, alternately to A and B: a list (200) and an unknown company (404, refunded).
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, index) =>
        call(
          `${(index % 2 === 0 ? a : b).baseUrl}/api/companies${index % 4 < 2 ? '' : '/nowhere.io'}`,
          withKey(key),
        ),
      ),
    );

    const counts = statusCounts(answers);
    // Refused by the hourly limit (429) or answered: nothing else, no 5xx.
    for (const status of Object.keys(counts)) expect([200, 404, 429]).toContain(Number(status));
    expect(counts[200]).toBeGreaterThan(0);
    expect(counts[200]).toBeLessThanOrEqual(100);
    for (const api of [a, b]) {
      const usage = await adminUsage(api, id);
      expect(usage.hourly.used).toBe(counts[200]);
      expect(usage.credits.used).toBe(counts[200]);
    }
  });

  it('stops accepting a revoked key in every process within a second', async () => {
    showOutputOnFailure(processes);
    const revoked = await createKey('roomy', 'revoked through the admin API');
    const control = await createKey('roomy', 'revoked in the database only');
    // Both processes look both keys up, so each holds them in its key cache.
    for (const api of [a, b]) {
      for (const { key } of [revoked, control]) {
        expect((await call(`${api.baseUrl}/api/usage`, withKey(key))).status).toBe(200);
      }
    }
    // The control: revoked behind the processes' backs, it is still served from B's cache.
    await revokeInDatabaseOnly(control.id);
    expect((await call(`${b.baseUrl}/api/usage`, withKey(control.key))).status).toBe(200);
    expect((await call(`${b.baseUrl}/api/usage`, withKey(revoked.key))).status).toBe(200);

    const deleted = await call(`${a.baseUrl}/admin/keys/${revoked.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${adminToken}` },
    });
    const revokedAt = Date.now();
    expect(deleted.status).toBe(204);

    const refusedAfterMs = await waitFor(
      'process B to refuse the revoked key',
      async () => {
        const answer = await call(`${b.baseUrl}/api/usage`, withKey(revoked.key));
        return answer.status === 401 ? Date.now() - revokedAt : undefined;
      },
      5_000,
      20,
    );
    expect(refusedAfterMs).toBeLessThanOrEqual(1_000);

    const onA = await call(`${a.baseUrl}/api/usage`, withKey(revoked.key));
    expect(onA.status).toBe(401);
    expect(onA.body?.message).toBe('The API key has been revoked');
    // The control is still cached: only the announcement explains B's refusal.
    expect((await call(`${b.baseUrl}/api/usage`, withKey(control.key))).status).toBe(200);
  });
});
