import { IngestQueue } from '#app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiReady,
  showOutputOnFailure,
  startApiProcess,
  stopApiProcess,
  type ApiProcess,
} from './support/api-process.js';
import {
  expectAcceptedRecordsApplied,
  expectReadsChargedOnce,
  startSteadyLoad,
} from './support/fault-harness.js';
import type { AcceptedBatch } from './support/steady-load.js';
import type { BatchStatusBody } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';
import { waitFor } from './support/wait-for.js';
import { startWorkerProcess, workerReady, type WorkerProcess } from './support/worker-process.js';

/*
 * Two worker processes consume a steady ingest load, and a backlog, behind a real API process;
 * one is killed with SIGKILL in the middle of the backlog. The survivor takes the dead one's
 * jobs over once their locks expire (INGEST_LOCK_MS, 2 s in tests), and the log and the read
 * models end up holding every accepted record exactly once.
 */

const environment = testEnvironment();
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
/** Six chunks: both workers hold some (four at a time each, by default) when one dies. */
const BACKLOG_BATCHES = 3;
let api: ApiProcess;
let victim: WorkerProcess;
let survivor: WorkerProcess;

beforeAll(async () => {
  // The API migrates first, then the workers start on the ready schema.
  api = await startApiProcess('api', environment.env);
  await apiReady(api);
  [victim, survivor] = await Promise.all([
    startWorkerProcess('worker A (killed)', environment.env),
    startWorkerProcess('worker B (survivor)', environment.env),
  ]);
  await Promise.all([workerReady(victim), workerReady(survivor)]);
}, 120_000);

afterAll(async () => {
  for (const child of [api, victim, survivor]) if (child) await stopApiProcess(child);
  await environment.cleanup();
}, 60_000);

describe('a worker killed with SIGKILL under a steady ingest load', () => {
  it('loses no accepted record and applies none twice; the survivor takes over and stops cleanly', async () => {
    // The promises: a worker may die at any point without an event being lost or applied twice
    // (README, "Never skipping, never applying twice"); the API keeps accepting and serving meanwhile; the survivor takes
    // the dead worker's jobs over and still stops promptly on SIGTERM.
    showOutputOnFailure([api, victim, survivor]);
    const service = await startSteadyLoad(api, environment);
    const { load, ingest } = service;
    await sleep(2_000);

    // Sent again should the API answer 503 (it may, on a machine so loaded that metering times
    // out), as a pipeline would.
    const backlog: AcceptedBatch[] = [];
    for (let batch = 0; batch < BACKLOG_BATCHES; batch += 1) {
      backlog.push(
        await waitFor(
          'a backlog batch to be accepted',
          async () => (await load.ingestNow(1_000)) ?? undefined,
          30_000,
          1_000,
        ),
      );
    }
    // The backlog's progress, or undefined when an answer is not a status (the burst limit).
    const status = async () => {
      let done = 0;
      let complete = true;
      for (const { batchId } of backlog) {
        const response = await fetch(`${api.baseUrl}/ingest/batches/${batchId}`, {
          headers: { authorization: `Bearer ${ingest.key}` },
          signal: AbortSignal.timeout(10_000),
        });
        if (response.status !== 200) return undefined;
        const body = (await response.json()) as BatchStatusBody;
        done += body.counts.done;
        complete &&= body.complete;
      }
      return { done, complete };
    };
    const atKill = await waitFor(
      'the backlog to be partly done',
      async () => {
        const current = await status();
        return current && current.done > 0 ? current : undefined;
      },
      60_000,
      // Three statuses a poll, within the burst limit.
      200,
    );
    load.mark('after kill');
    victim.child.kill('SIGKILL');
    await victim.exit;
    expect(victim.child.signalCode).toBe('SIGKILL');
    // The backlog must still have been under way, or the kill tested nothing.
    expect(atKill.complete).toBe(false);
    await waitFor(
      'the backlog to settle after the kill',
      async () => ((await status())?.complete ? true : undefined),
      60_000,
      200,
    );
    await sleep(2_000);
    await load.stop();

    expect(load.problems(), load.summary()).toEqual([]);
    const applied = await expectAcceptedRecordsApplied(api, environment, service);
    await expectReadsChargedOnce(api, environment, service);

    survivor.child.kill('SIGTERM');
    const stopped = await Promise.race([survivor.exit, sleep(10_000).then(() => 'running')]);
    expect(stopped, 'the survivor exits 0 within 10 s of SIGTERM').toEqual([0, null]);

    // Nothing left behind, and the dead worker's jobs went through BullMQ's stalled-job check.
    const queue = new IngestQueue(environment.config());
    try {
      const counts = await queue.queue.getJobCounts('active', 'wait', 'delayed', 'failed');
      expect(counts).toEqual({ active: 0, wait: 0, delayed: 0, failed: 0 });
      const completed = await queue.queue.getJobs(['completed'], 0, -1);
      const takenOver = completed.filter((job) => job.stalledCounter > 0).length;
      expect(takenOver).toBeGreaterThan(0);
      console.info(
        `worker kill (${environment.dialect}): killed at backlog done=${atKill.done}; ` +
          `${load.summary()}; records done ${applied.done}, duplicate ${applied.duplicate}, ` +
          `taken over ${takenOver}`,
      );
    } finally {
      await queue.onApplicationShutdown();
    }
  }, 150_000);
});
