import { IngestQueue } from '#app/contracts';
import { hostname } from 'node:os';
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
 * one is killed with SIGKILL while it holds a job. The survivor takes the dead one's
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
/** The ingest queue as the test reads it: which jobs the victim holds, and what is left. */
let queue: IngestQueue | undefined;

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
  await queue?.onApplicationShutdown();
  for (const child of [api, victim, survivor]) if (child) await stopApiProcess(child);
  await environment.cleanup();
}, 60_000);

describe('a worker killed with SIGKILL under a steady ingest load', () => {
  it('loses no accepted record and applies none twice; the survivor takes over and stops cleanly', async () => {
    // The promises: a worker may die at any point without an event being lost or applied twice
    // (docs/architecture.md, "Never skipping, never applying twice"); the API keeps accepting and serving meanwhile; the survivor takes
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
      let complete = true;
      for (const { batchId } of backlog) {
        const response = await fetch(`${api.baseUrl}/ingest/batches/${batchId}`, {
          headers: { authorization: `Bearer ${ingest.key}` },
          signal: AbortSignal.timeout(10_000),
        });
        if (response.status !== 200) return undefined;
        complete &&= ((await response.json()) as BatchStatusBody).complete;
      }
      return { complete };
    };
    // The victim is killed while it holds a job (BullMQ stores the taking process's name on a
    // job: the worker's host and pid), or the kill would test nothing.
    const victimName = `${hostname()}:${victim.child.pid}`;
    const ingestQueue = (queue = new IngestQueue(environment.config()));
    const heldByVictim = async () =>
      (await ingestQueue.queue.getJobs(['active'])).filter((job) => job.processedBy === victimName);
    const heldAtKill = await waitFor(
      'the victim to hold a job',
      async () => {
        const held = await heldByVictim();
        return held.length > 0 ? held.map((job) => job.id) : undefined;
      },
      60_000,
      20,
    );
    load.mark('after kill');
    victim.child.kill('SIGKILL');
    await victim.exit;
    expect(victim.child.signalCode).toBe('SIGKILL');
    await waitFor(
      'the backlog to settle after the kill',
      async () => ((await status())?.complete ? true : undefined),
      60_000,
      200,
    );
    // The survivor's stalled-job check takes over what the victim held once its locks expire
    // (INGEST_LOCK_MS); the backlog can read complete before that, when the victim died after
    // settling a chunk and before finishing its job.
    await waitFor(
      "the victim's jobs to be taken over",
      async () => ((await heldByVictim()).length > 0 ? undefined : true),
      30_000,
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
    const counts = await ingestQueue.queue.getJobCounts('active', 'wait', 'delayed', 'failed');
    expect(counts).toEqual({ active: 0, wait: 0, delayed: 0, failed: 0 });
    const completed = await ingestQueue.queue.getJobs(['completed'], 0, -1);
    const takenOver = completed.filter((job) => job.stalledCounter > 0).length;
    expect(takenOver).toBeGreaterThan(0);
    console.info(
      `worker kill (${environment.dialect}): killed holding ${heldAtKill.length} job(s); ` +
        `${load.summary()}; records done ${applied.done}, duplicate ${applied.duplicate}, ` +
        `taken over ${takenOver}`,
    );
  }, 150_000);
});
