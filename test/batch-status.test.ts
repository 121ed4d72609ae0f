import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchLedger, IngestQueue } from '#app/contracts';
import { records } from './support/records.js';
import { onOneConnection, OwnRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/**
 * A batch's status costs a few commands whatever the batch's size or the queue's backlog: its
 * counters and failures, then, while records have no outcome, one look at each of their chunks'
 * jobs and none at the queue's lists of waiting jobs, where asking BullMQ
 * job by job walked the list of waiting jobs once per record (LPOS). Counted on a Redis of this
 * file's own, which nothing else talks to, with no worker, so every job stays waiting. (How fast
 * it answers behind 50,000 jobs is the benchmarks' to say: `npm run bench -- --only limits`.)
 */

const BACKLOG = 5_000;
const RECORDS = 1_000;
/** The request's own: its key, its metering, the counters (in a MULTI), the active list. */
const A_FEW = 12;

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
  it('reads each chunk once, walks no list of waiting jobs, and costs the same behind any backlog', async () => {
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
    expect(behind.total).toBeLessThanOrEqual(
      Math.ceil(RECORDS / api.config.ingest.chunkSize) + A_FEW,
    );
    // The key and metering of the request aside (a few, as for the first), the same commands.
    expect(Math.abs(behind.total - small.total)).toBeLessThanOrEqual(2);
  });

  it('counts the records of a chunk whose job an operator removed as unknown, and of one failed for good as failed', async () => {
    const { chunkSize } = api.config.ingest;
    const total = chunkSize + 50;
    const batch = await api.ingest(
      Array.from({ length: total }, (_, i) => records.company(`removed-${i}.io`)),
    );
    const { body } = await statusOf(batch);
    expect(body).toMatchObject({ counts: { waiting: total, unknown: 0, failed: 0 } });
    const ledger = await api.app.get(BatchLedger).read(batch);
    const { queue, redis } = api.app.get(IngestQueue);
    await queue.remove(ledger!.jobIds[1]!);
    // As BullMQ leaves a job it failed for good that settled nothing (its worker lost Redis).
    await redis.hset(queue.toKey(ledger!.jobIds[0]!), 'finishedOn', Date.now());
    expect((await statusOf(batch)).body).toMatchObject({
      total,
      complete: true,
      counts: { failed: chunkSize, waiting: 0, unknown: 50 },
    });
  });

  it("settles a chunk only from the batch's own job for it, and only inside the chunk", async () => {
    const batch = await api.ingest([records.company('own-a.io'), records.company('own-b.io')]);
    const ledger = api.app.get(BatchLedger);
    const [jobId] = (await ledger.read(batch))!.jobIds as [string];
    const done = [{ position: 0, outcome: 'done' as const }];
    // Another job naming the batch, another chunk, positions outside it: nothing moves.
    await ledger.settle({ batchId: batch, jobId: 'chunk-spoofed', chunkIndex: 0 }, done);
    await ledger.settle({ batchId: batch, jobId, chunkIndex: 1 }, done);
    await ledger.settle({ batchId: batch, jobId, chunkIndex: 0 }, [
      { position: 2, outcome: 'done' },
      { position: -1, outcome: 'done' },
    ]);
    expect((await statusOf(batch)).body).toMatchObject({ counts: { waiting: 2, done: 0 } });
    // Settled twice, counted once; `unsettled` leaves the settled record as it was.
    await ledger.settle({ batchId: batch, jobId, chunkIndex: 0 }, done);
    await ledger.settle({ batchId: batch, jobId, chunkIndex: 0 }, done);
    const failure = { type: 'company', reason: 'gone' };
    await ledger.settle(
      { batchId: batch, jobId, chunkIndex: 0 },
      [0, 1].map((position) => ({ position, outcome: 'failed' as const, failure })),
      'unsettled',
    );
    expect((await statusOf(batch)).body).toMatchObject({
      complete: true,
      counts: { waiting: 0, done: 1, failed: 1 },
      failures: [{ index: 1, job_id: jobId, type: 'company', reason: 'gone' }],
    });
  });
});
