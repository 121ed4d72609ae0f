import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { showOutputOnFailure, stopApiProcess, type ApiProcess } from './support/api-process.js';
import {
  expectAcceptedRecordsApplied,
  expectReadsChargedOnce,
  startSteadyLoad,
  throughOutage,
} from './support/fault-harness.js';
import { OwnRedis } from './support/redis-server.js';
import { testEnvironment } from './support/test-environment.js';
import { startApiThenWorker, type WorkerProcess } from './support/worker-process.js';

/*
 * Redis killed (SIGKILL) and started again under a steady load of ingest batches and metered
 * reads, on a real API process and a real worker process. This Redis persists as production's
 * must (an append-only file, fsynced before a write is answered): without that a restart
 * empties the queue, and a 202 would mean nothing.
 */

const redis = await OwnRedis.create(null, { appendOnly: true });
const environment = testEnvironment({ REDIS_URL: redis.url });
let api: ApiProcess;
let worker: WorkerProcess;

beforeAll(async () => {
  await redis.start();
  ({ api, worker } = await startApiThenWorker(environment.env));
}, 120_000);

afterAll(async () => {
  // A test that failed midway may have left Redis stopped: the processes close faster with it.
  await redis.start().catch(() => undefined);
  for (const child of [api, worker]) if (child) await stopApiProcess(child);
  await environment.cleanup();
  await redis.remove();
}, 60_000);

describe('Redis killed and restarted under read and ingest load', () => {
  it('keeps every accepted record (applied once), charges each 2xx read once, and answers 503 with retry_after meanwhile', async () => {
    // The promises: a 202 means the records survive Redis's death and are applied exactly once
    // (jobs the worker held when Redis died included); while Redis is away every request gets
    // a 2xx or a 503 with retry_after, never a hang or a 500; API and worker find Redis again
    // by themselves; the read key pays for its 2xx answers only.
    showOutputOnFailure([api, worker]);
    const service = await startSteadyLoad(api, environment);
    const { load } = service;
    await new Promise((done) => setTimeout(done, 3_000));

    const { readyDuringOutage } = await throughOutage(api, load, {
      stop: () => redis.stop(),
      start: () => redis.start(),
    });

    expect(load.problems(), load.summary()).toEqual([]);
    const refused = load.answers.filter(
      (answer) => answer.phase === 'outage' && answer.status === 503,
    );
    expect(refused.length, `503s while Redis was down (${load.summary()})`).toBeGreaterThan(0);
    expect(readyDuringOutage, 'readiness while Redis was down').toBe(503);
    const applied = await expectAcceptedRecordsApplied(api, environment, service);
    await expectReadsChargedOnce(api, environment, service);
    console.info(
      `redis restart (${environment.dialect}): ${load.summary()}; ` +
        `records done ${applied.done}, duplicate ${applied.duplicate}`,
    );
  }, 150_000);
});
