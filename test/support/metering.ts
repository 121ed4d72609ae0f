import { expect } from 'vitest';
import { getJson } from './catalogue-fixture.js';
import type { TestApp } from './test-app.js';

/** GET /v1/api/usage: a key's own counters. */
export interface Usage {
  plan: string;
  hourly: {
    limit: number;
    used: number;
    remaining: number;
    window_started_at: string | null;
    reset_at: string | null;
  };
  credits: { limit: number; used: number; remaining: number; reset_at: string };
  burst: { limit_per_second: number };
}

export async function usageOf(api: TestApp, key: string): Promise<Usage> {
  const response = await getJson<Usage>(api, '/api/usage', key);
  expect(response.status).toBe(200);
  return response.body;
}

/** The key's hourly count and credits used, as its own usage shows them. */
export async function countsOf(
  api: TestApp,
  key: string,
): Promise<{ hourly: number; credits: number }> {
  const { hourly, credits } = await usageOf(api, key);
  return { hourly: hourly.used, credits: credits.used };
}

/**
 * 60 requests of `path` (a charged route of files or pricing, whose refusals carry a code) at
 * once with a fresh key of 30 requests an hour: exactly 30 are served and counted, and 30
 * refused for the hourly limit.
 */
export async function expectThirtyOfSixtyServed(
  api: TestApp,
  key: string,
  path: string,
): Promise<void> {
  const answers = await Promise.all(
    Array.from({ length: 60 }, () => getJson<{ code?: string }>(api, path, key)),
  );
  const statuses = answers.map((response) => response.status);
  expect(statuses.filter((status) => status === 200)).toHaveLength(30);
  const refused = answers.filter((response) => response.status === 429);
  expect(refused).toHaveLength(30);
  for (const response of refused) expect(response.body.code).toBe('RATE_LIMIT_EXCEEDED');
  expect(await countsOf(api, key)).toEqual({ hourly: 30, credits: 30 });
}
