import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { showOutputOnFailure, stopApiProcess, type ApiProcess } from './support/api-process.js';
import {
  expectAcceptedRecordsApplied,
  expectReadsChargedOnce,
  startSteadyLoad,
  throughOutage,
} from './support/fault-harness.js';
import { OwnPostgres } from './support/own-postgres.js';
import { testEnvironment, type TestEnvironment } from './support/test-environment.js';
import { startApiThenWorker, type WorkerProcess } from './support/worker-process.js';

/*
 * PostgreSQL stopped (an immediate shutdown: sessions cut as in a crash, recovery from the WAL
 * at the next start) and started again under a steady load of ingest batches and metered
 * reads, on a real API process and a real worker process. The cluster is this file's own, so
 * stopping it disturbs no other file. Skipped on SQLite: there is no server to stop there (the
 * database is a file opened inside each process).
 */

const onPostgres = (process.env.TEST_DATABASE_URL ?? '').startsWith('postgres');

describe.skipIf(!onPostgres)('PostgreSQL stopped and started under read and ingest load', () => {
  let cluster: OwnPostgres;
  let environment: TestEnvironment;
  let api: ApiProcess;
  let worker: WorkerProcess;

  beforeAll(async () => {
    cluster = await OwnPostgres.create();
    await cluster.start();
    environment = testEnvironment({
      DATABASE_URL: cluster.url,
      // Keys stay cached through the outage however slow the machine: a key looked up while the
      // database is away gets a 503, which would hide whether ingestion (Redis only) goes on.
      API_KEY_CACHE_SECONDS: '300',
    });
    ({ api, worker } = await startApiThenWorker(environment.env));
  }, 120_000);

  afterAll(async () => {
    for (const child of [api, worker]) if (child) await stopApiProcess(child);
    await environment?.cleanup();
    await cluster?.remove();
  }, 60_000);

  it('applies every accepted record once, charges each 2xx read once, and answers 503 with retry_after meanwhile', async () => {
    // The promises: ingestion keeps accepting (the queue is in Redis); the worker neither loses
    // nor fails a record for the database's absence, and applies each exactly once when it is
    // back (a transaction cut mid-commit included); reads answer 503 with retry_after while it
    // is away (never a 500 or a hang) and are not charged; nothing needs a restart.
    showOutputOnFailure([api, worker]);
    const service = await startSteadyLoad(api, environment);
    const { load } = service;
    await new Promise((done) => setTimeout(done, 3_000));

    const { readyDuringOutage } = await throughOutage(api, load, {
      stop: () => cluster.stop('immediate'),
      start: () => cluster.start(),
    });

    expect(load.problems(), load.summary()).toEqual([]);
    const during = (kind: string, status: number) =>
      load.answers.filter(
        (answer) => answer.phase === 'outage' && answer.kind === kind && answer.status === status,
      ).length;
    expect(during('read', 503), `reads refused meanwhile (${load.summary()})`).toBeGreaterThan(0);
    expect(during('ingest', 202), `batches accepted meanwhile (${load.summary()})`).toBeGreaterThan(
      0,
    );
    expect(readyDuringOutage, 'readiness while the database was down').toBe(503);
    const applied = await expectAcceptedRecordsApplied(api, environment, service);
    await expectReadsChargedOnce(api, environment, service);
    console.info(
      `postgres restart: ${load.summary()}; ` +
        `records done ${applied.done}, duplicate ${applied.duplicate}`,
    );
  }, 150_000);
});
