import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IngestQueue } from '#app/contracts';
import { BatchManifestStore } from '#app/ingest';
import { records } from './support/records.js';
import { onOneConnection, OwnRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/**
 * A batch's status costs the same whatever the queue's backlog: its manifest, then one script
 * that reads each of its jobs once and walks none of the queue's lists (but the short one of
 * active jobs), where asking BullMQ job by job walked the list of waiting jobs once per record
 * (LPOS). Counted on a Redis of this file's own, which nothing else talks to, with no worker,
 * so every job stays waiting. (How fast it answers behind 50,000 jobs is the benchmarks' to
 * say: `npm run bench -- --only limits`.)
 */

const BACKLOG = 5_000;
const RECORDS = 1_000;
/** The request's own: its key, its metering, the manifest, the script. */
const A_FEW = 10;

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

/** Commands the Redis server has run so far, by name, but those of the counting (HELLO, INFO). */
const commandsRun = () =>
  onOneConnection(redis.url, async (client) => {
    const stats = await client.info('commandstats');
    const calls = new Map<string, number>();
    for (const [, command, count] of stats.matchAll(/^cmdstat_(\w+):calls=(\d+)/gm)) {
      if (command !== 'info' && command !== 'hello') calls.set(command!, Number(count));
    }
    return calls;
  });

async function statusOf(batchId: string) {
  const before = await commandsRun();
  const response = await api.request(`/ingest/batches/${batchId}`, {
    headers: { authorization: `Bearer ${ingestKey}` },
  });
  const after = await commandsRun();
  expect(response.status).toBe(200);
  const ran = (command: string) => (after.get(command) ?? 0) - (before.get(command) ?? 0);
  const total = [...after.keys()].reduce((sum, command) => sum + ran(command), 0);
  return { total, ran, body: (await response.json()) as { total: number; counts: object } };
}

const addBacklog = (count: number) =>
  api.app.get(IngestQueue).queue.addBulk(
    Array.from({ length: count }, (_, i) => ({
      name: 'company',
      data: { record: records.company(`backlog-${i}.io`), batchId: null, requestId: null },
    })),
  );

describe('the status of a batch', () => {
  it('reads each job once, walks no list of waiting jobs, and costs the same behind any backlog', async () => {
    const alone = await statusOf(await api.ingest([records.company('alone.io')]));
    expect(alone.body).toMatchObject({ total: 1, counts: { waiting: 1 } });
    expect(alone.total).toBeLessThanOrEqual(1 + A_FEW);

    const batch = await api.ingest(
      Array.from({ length: RECORDS }, (_, i) => records.company(`batch-${i}.io`)),
    );
    const small = await statusOf(batch);
    await addBacklog(BACKLOG);
    const behind = await statusOf(batch);
    expect(behind.body).toMatchObject({ total: RECORDS, counts: { waiting: RECORDS, done: 0 } });
    expect(behind.ran('lpos')).toBe(0);
    expect(behind.total).toBeLessThanOrEqual(RECORDS + A_FEW);
    // The key and metering of the request aside (a few, as for the first), the same commands.
    expect(Math.abs(behind.total - small.total)).toBeLessThanOrEqual(2);
  });

  it('counts a job an operator removed as unknown', async () => {
    const batch = await api.ingest([records.company('kept.io'), records.company('removed.io')]);
    const { body } = await statusOf(batch);
    expect(body).toMatchObject({ counts: { waiting: 2, unknown: 0 } });
    const manifest = await api.app.get(BatchManifestStore).load(batch);
    await api.app.get(IngestQueue).queue.remove(manifest!.job_ids[1]!);
    expect((await statusOf(batch)).body).toMatchObject({
      total: 2,
      counts: { waiting: 1, unknown: 1 },
    });
  });
});
