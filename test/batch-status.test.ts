import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IngestQueue } from '#app/contracts';
import { records } from './support/records.js';
import { onOneConnection, OwnRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/**
 * A batch's status costs Redis a few commands whatever the batch or the queue's backlog: its
 * manifest, the outcomes the worker wrote down, the jobs in hand. Counted on a Redis of this
 * file's own, which nothing else talks to, with no worker, so every job stays waiting. (How
 * fast it answers behind 50,000 jobs is the benchmarks' to say: `npm run bench -- --only
 * batch-status`.)
 */

const BACKLOG = 5_000;
/** Reading it job by job took two commands per record (8,006 here for the large batch). */
const A_FEW = 20;

let redis: OwnRedis;
let environment: ReturnType<typeof testEnvironment>;
let api: TestApp;
let ingestKey: string;

beforeAll(async () => {
  redis = await OwnRedis.create();
  await redis.start();
  environment = testEnvironment({ REDIS_URL: redis.url });
  api = await startTestApp(environment.config(), { withWorker: false });
  ingestKey = await api.createKey(['ingest']);
});

afterAll(async () => {
  await api?.close();
  await environment?.cleanup();
  await redis?.remove();
});

/** Commands the Redis server has run so far, but those of the counting (a connection, INFO). */
const commandsRun = () =>
  onOneConnection(redis.url, async (client) => {
    const stats = await client.info('commandstats');
    return [...stats.matchAll(/^cmdstat_(\w+):calls=(\d+)/gm)]
      .filter(([, command]) => command !== 'info' && command !== 'hello')
      .reduce((sum, [, , calls]) => sum + Number(calls), 0);
  });

async function statusOf(batchId: string) {
  const before = await commandsRun();
  const response = await api.request(`/ingest/batches/${batchId}`, {
    headers: { authorization: `Bearer ${ingestKey}` },
  });
  const commands = (await commandsRun()) - before;
  expect(response.status).toBe(200);
  return { commands, body: (await response.json()) as { total: number; counts: object } };
}

describe('the status of a batch', () => {
  it('costs the same few Redis commands for 1 record alone as for 1,000 behind a backlog', async () => {
    const small = await api.ingest([records.company('alone.io')]);
    const alone = await statusOf(small);
    expect(alone.body).toMatchObject({ total: 1, counts: { waiting: 1 } });

    await api.app.get(IngestQueue).queue.addBulk(
      Array.from({ length: BACKLOG }, (_, i) => ({
        name: 'company',
        data: { record: records.company(`backlog-${i}.io`), batchId: null, requestId: null },
      })),
    );
    const big = await api.ingest(
      Array.from({ length: 1_000 }, (_, i) => records.company(`batch-${i}.io`)),
    );
    const behind = await statusOf(big);
    expect(behind.body).toMatchObject({ total: 1_000, counts: { waiting: 1_000, done: 0 } });

    expect(alone.commands).toBeLessThanOrEqual(A_FEW);
    // The request's own metering and key lookups aside, nothing grows with the batch or backlog.
    expect(behind.commands).toBeLessThanOrEqual(alone.commands + 2);
  });
});
