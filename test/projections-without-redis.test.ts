import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompanyRegistered, streamIds } from '#app/domain';
import { EventStore, TransactionRunner } from '#app/persistence';
import { getJson } from './support/catalogue-fixture.js';
import { runCli, said } from './support/cli-process.js';
import { OwnRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';
import { waitFor } from './support/wait-for.js';

/*
 * Projections need only the database: with Redis away, the projectors go on applying the log and
 * `cli rebuild` replays it, and once Redis is back the API's kept answers (kept under the
 * checkpoint stamps published on Redis, on PostgreSQL) follow what was projected meanwhile.
 * Redis is this file's own, stopped with SIGSTOP so that it keeps what it holds (the stamps
 * published before), as a Redis cut off by the network would.
 */

const redis = await OwnRedis.create();
const environment = testEnvironment({ REDIS_URL: redis.url });
let api: TestApp;
let key: string;
let transactions: TransactionRunner;

const METADATA = { batch_id: null, request_id: null, job_id: null, content_hash: 'direct' };

/** A company registered straight into the log, as the worker would append it, without Redis. */
async function register(slug: string): Promise<void> {
  await transactions.run((tx) =>
    api.app.get(EventStore).append(tx, [
      {
        event: new CompanyRegistered(streamIds.company(slug), {
          slug,
          name: `Quiet ${slug}`,
          category: 'Finance',
          employees: '1-10',
          url: `https://${slug}`,
        }),
        expectedVersion: 0,
        idempotencyKey: `projections-without-redis:${slug}`,
        metadata: METADATA,
      },
    ]),
  );
}

const projected = async (slug: string) =>
  (await transactions.query('SELECT slug FROM companies WHERE slug = $1', [slug])).length === 1;

const listed = async () =>
  (
    await getJson<{ data: { slug: string }[] }>(api, '/api/companies?search=quiet', key)
  ).body.data.map(({ slug }) => slug);

beforeAll(async () => {
  await redis.start();
  api = await startTestApp(environment.config());
  transactions = api.app.get(TransactionRunner);
  key = await api.createKey(['read']);
});

afterAll(async () => {
  redis.resume();
  await api?.close();
  await redis.remove();
  await environment.cleanup();
});

describe('projections while Redis is unreachable', () => {
  it('go on, a rebuild too, and the kept answers follow them once Redis is back', async () => {
    await register('before.io');
    await waitFor('before.io to be projected', async () =>
      (await projected('before.io')) ? true : undefined,
    );
    // Kept by the lane under the stamp published on Redis (PostgreSQL) or read from the file.
    expect(await listed()).toEqual(['before.io']);
    expect(await listed()).toEqual(['before.io']);

    redis.pause();
    try {
      await register('during.io');
      await waitFor(
        'during.io to be projected with Redis away',
        async () => ((await projected('during.io')) ? true : undefined),
        20_000,
      );
      const rebuild = await runCli(environment.env, ['rebuild'], {}, { killAfterMs: 60_000 });
      expect(rebuild.code, said(rebuild)).toBe(0);
      expect(await projected('during.io')).toBe(true);
    } finally {
      redis.resume();
    }

    // Redis still holds the stamps published before: the answers must not come from them.
    await waitFor(
      'the companies list to show what was projected while Redis was away',
      async () => {
        const slugs = await listed();
        return slugs.length === 2 ? slugs : undefined;
      },
      10_000,
    );
    expect(await listed()).toEqual(['before.io', 'during.io']);
  });
});
