import { BatchLedger, batchBodyOf, IngestQueue, recordsOfJob } from '#app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IngestService } from '#app/ingest';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/**
 * Parsing and checking a 1,000-record batch is CPU work. Done on the API's event loop, every
 * other request (and the Redis call that meters it, which has a deadline) waits behind it; with
 * several batches in flight, for seconds. It runs on a thread of its own: these tests count the
 * turns the event loop takes while a batch is checked, see a read answered in the middle of one,
 * and see batches handled one after another, with no clock involved. The bench scenario
 * ingest-while-reading measures the latencies.
 */
const environment = testEnvironment();
let api: TestApp;
let ingest: IngestService;

const BATCH = 1_000;

/** Distinct valid records: one company's scrapes over as many days. */
function validBatch() {
  return batchBodyOf(
    Array.from({ length: BATCH }, (_, day) => records.scrape('turns.io', '', dayVersion(day))),
  );
}

/** Records that each fail validation (a version that is no date). */
function invalidBatch() {
  return batchBodyOf(
    Array.from({ length: BATCH }, () => records.scrape('turns.io', '', 'yesterday')),
  );
}

function dayVersion(day: number): string {
  return new Date(Date.UTC(2020, 0, 1) + day * 86_400_000)
    .toISOString()
    .slice(0, 10)
    .replaceAll('-', '');
}

/** How many turns the event loop takes until `work` settles, and how it settled. */
async function turnsDuring<T>(work: () => Promise<T>) {
  let turns = 0;
  let settled = false;
  const countTurn = () => {
    if (settled) return;
    turns += 1;
    setImmediate(countTurn);
  };
  setImmediate(countTurn);
  const [outcome] = await Promise.allSettled([work()]);
  settled = true;
  return { turns, outcome };
}

beforeAll(async () => {
  api = await startTestApp(environment.config(), { withWorker: false });
  ingest = api.app.get(IngestService);
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

describe('a batch does not hold the event loop', () => {
  it('lets the loop turn while it checks the records, and refuses the bad ones as before', async () => {
    const { turns, outcome } = await turnsDuring(() => ingest.accept(invalidBatch(), null));
    expect(outcome).toMatchObject({
      status: 'rejected',
      reason: { status: 400, code: 'INVALID_RECORDS' },
    });
    const { invalid } = (outcome as PromiseRejectedResult).reason.details;
    expect(invalid).toHaveLength(BATCH);
    expect(invalid[BATCH - 1]).toEqual({
      index: BATCH - 1,
      type: 'scrape',
      reasons: [expect.stringContaining('version')],
    });
    expect(turns).toBeGreaterThanOrEqual(BATCH - 1);
  });

  it('handles one batch at a time: a bad batch handed in just after a good one waits for it', async () => {
    const settledFirst: string[] = [];
    const good = ingest.accept(validBatch(), null).then((accepted) => {
      expect(accepted).toMatchObject({
        accepted: BATCH,
        jobs: Math.ceil(BATCH / api.config.ingest.chunkSize),
      });
      settledFirst.push('good');
    });
    const bad = ingest.accept(invalidBatch(), null).catch(() => settledFirst.push('bad'));
    await Promise.all([good, bad]);
    expect(settledFirst).toEqual(['good', 'bad']);
  });

  it('answers a metered read sent while a batch is being checked before the batch', async () => {
    const key = await api.createKey(['read']);
    const settledFirst: string[] = [];
    const batch = ingest.accept(invalidBatch(), null).catch(() => settledFirst.push('batch'));
    const read = fetch(`${api.baseUrl}/api/companies`, {
      headers: { authorization: `Bearer ${key}` },
    }).then(async (response) => {
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      settledFirst.push('read');
    });
    await Promise.all([batch, read]);
    expect(settledFirst).toEqual(['read', 'batch']);
  });

  it('lets the batch in hand finish when the process shuts down, every job queued', async () => {
    const inHand = ingest.accept(validBatch(), null);
    await new Promise((next) => setImmediate(next));
    await ingest.onModuleDestroy();
    const accepted = await inHand;
    expect(accepted).toMatchObject({
      accepted: BATCH,
      jobs: Math.ceil(BATCH / api.config.ingest.chunkSize),
    });
    const ledger = await api.app.get(BatchLedger).read(accepted.batch_id);
    const queue = api.app.get(IngestQueue).queue;
    const queued = await Promise.all(ledger!.jobIds.map((id) => queue.getJob(id)));
    expect(queued.flatMap((job) => (job ? recordsOfJob(job.data) : []))).toHaveLength(BATCH);
  });
});
