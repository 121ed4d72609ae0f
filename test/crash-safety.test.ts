import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { IngestRecord } from '#app/contracts';
import { IngestQueue } from '#app/contracts';
import { TransactionRunner } from '#app/persistence';
import { records } from './support/records.js';
import { startTestApp, type BatchStatusBody, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';
import { waitFor } from './support/wait-for.js';

/**
 * Two worker processes share one large batch; one is killed with SIGKILL halfway. The other
 * takes over the dead one's jobs once their locks expire, and the log and read models end up
 * holding every record exactly once.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WORKER_ENTRY = 'dist/apps/worker/src/main.js';

// Enough attempts that a scrape whose page was held by the killed worker outlives the takeover
// (exponential backoff from 100 ms: ten attempts span about 50 s).
const environment = testEnvironment({
  INGEST_ATTEMPTS: '10',
  INGEST_BACKOFF_MS: '100',
  INGEST_LOCK_MS: '2000',
});
let api: TestApp;

interface WorkerProcess {
  name: string;
  child: ChildProcess;
  stdout: string;
  stderr: string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const workers: WorkerProcess[] = [];

function startWorker(name: string): WorkerProcess {
  const child = spawn(process.execPath, [WORKER_ENTRY], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...environment.env,
      WORKER_CONCURRENCY: '4',
      INGEST_LOCK_MS: '2000',
      // 'log' prints "worker started", which tells the test the worker is consuming.
      LOG_LEVEL: 'log',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const worker: WorkerProcess = {
    name,
    child,
    stdout: '',
    stderr: '',
    exit: once(child, 'exit').then(([code, signal]) => ({
      code: code as number | null,
      signal: signal as NodeJS.Signals | null,
    })),
  };
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (worker.stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (worker.stderr += chunk));
  workers.push(worker);
  return worker;
}

function isRunning(worker: WorkerProcess): boolean {
  return worker.child.exitCode === null && worker.child.signalCode === null;
}

function diagnostics(): string {
  return workers
    .map(
      (worker) =>
        `--- ${worker.name} (pid ${worker.child.pid}, exit ${worker.child.exitCode}/${worker.child.signalCode})\n` +
        `stderr:\n${worker.stderr.slice(-4000)}\nstdout (tail):\n${worker.stdout.slice(-2000)}`,
    )
    .join('\n');
}

async function count(sql: string): Promise<number> {
  const [row] = await api.app.get(TransactionRunner).query<{ n: number | string }>(sql);
  return Number(row?.n);
}

/** 20 companies, 20 pages, 900 scrapes: 940 records, every one a distinct natural key. */
function largeBatch(): IngestRecord[] {
  const companies = Array.from({ length: 20 }, (_, i) => `crash${String(i).padStart(2, '0')}.io`);
  const scrapes: IngestRecord[] = [];
  for (const slug of companies) {
    for (let k = 0; k < 45; k++) {
      const day = new Date(Date.UTC(2024, 0, 1 + Math.floor(k / 4)));
      const version = day.toISOString().slice(0, 10).replace(/-/g, '');
      scrapes.push(records.scrape(slug, '', version, { scraper: `scraper_${(k % 4) + 1}` }));
    }
  }
  return [
    ...companies.map((slug) => records.company(slug)),
    ...companies.map((slug) => records.page(slug)),
    ...scrapes,
  ];
}

beforeAll(async () => {
  // The API alone migrates first, so the workers find the schema ready.
  api = await startTestApp(environment.config(), { withWorker: false });
});

afterAll(async () => {
  for (const worker of workers) {
    if (isRunning(worker)) {
      worker.child.kill('SIGKILL');
      await worker.exit;
    }
  }
  await api?.close();
  await environment.cleanup();
});

describe('a worker killed mid-batch', () => {
  it('loses no record and applies none twice; the survivor finishes and shuts down cleanly', async () => {
    onTestFailed(() => console.error(diagnostics()));
    const started = Date.now();
    const [victim, survivor] = [startWorker('worker-a'), startWorker('worker-b')];
    for (const worker of [victim, survivor]) {
      await waitFor(
        `${worker.name} to start`,
        async () => {
          if (!isRunning(worker)) throw new Error(`${worker.name} exited:\n${worker.stderr}`);
          return worker.stdout.includes('worker started') ? true : undefined;
        },
        30_000,
      );
    }

    const batch = largeBatch();
    const batchId = await api.ingest(batch);
    const ingestKey = await api.createKey(['ingest']);
    const status = async (): Promise<BatchStatusBody> => {
      const response = await api.request(`/ingest/batches/${batchId}`, {
        headers: { authorization: `Bearer ${ingestKey}` },
      });
      expect(response.status).toBe(200);
      return (await response.json()) as BatchStatusBody;
    };

    const atKill = await waitFor(
      'the batch to be partly done',
      async () => {
        const current = await status();
        return current.counts.done >= 100 ? current : undefined;
      },
      60_000,
      20,
    );
    victim.child.kill('SIGKILL');
    const victimExit = await victim.exit;
    expect(victimExit.signal).toBe('SIGKILL');
    // The batch must still have been under way, or the kill tested nothing.
    expect(atKill.complete).toBe(false);
    const killedAt = Date.now();

    const final = await waitFor(
      'the batch to settle after the kill',
      async () => {
        const current = await status();
        return current.complete ? current : undefined;
      },
      90_000,
      200,
    );
    const settledAt = Date.now();
    expect(final.failures).toEqual([]);
    expect(final.total).toBe(batch.length);
    expect(final.counts).toMatchObject({ waiting: 0, active: 0, failed: 0, unknown: 0 });
    // A record whose events were committed by the dead worker before it could mark its job
    // done is found again by the survivor: reported as a duplicate, never appended twice.
    expect(final.counts.done + final.counts.duplicate).toBe(batch.length);

    // Exactly one event per record.
    expect(await count('SELECT COUNT(*) AS n FROM events')).toBe(batch.length);
    expect(await count('SELECT COUNT(DISTINCT stream_id) AS n FROM events')).toBe(batch.length);
    const twice = await api.app
      .get(TransactionRunner)
      .query<{ stream_id: string }>(
        'SELECT stream_id FROM events GROUP BY stream_id HAVING COUNT(*) > 1',
      );
    expect(twice).toEqual([]);
    expect(await count("SELECT COUNT(*) AS n FROM events WHERE stream_id LIKE 'company-%'")).toBe(
      20,
    );
    expect(await count("SELECT COUNT(*) AS n FROM events WHERE stream_id LIKE 'page-%'")).toBe(20);
    expect(await count("SELECT COUNT(*) AS n FROM events WHERE stream_id LIKE 'scrape-%'")).toBe(
      900,
    );

    // Every record once in the read models, projected by the surviving worker.
    await waitFor(
      'the read models to catch up',
      async () =>
        (await count('SELECT COUNT(*) AS n FROM scrape_files')) === 900 ? true : undefined,
      30_000,
      100,
    );
    expect(await count('SELECT COUNT(*) AS n FROM companies')).toBe(20);
    expect(await count('SELECT COUNT(DISTINCT slug) AS n FROM companies')).toBe(20);
    expect(await count('SELECT COUNT(*) AS n FROM pricing_pages')).toBe(20);
    expect(await count('SELECT COUNT(DISTINCT composite_slug) AS n FROM pricing_pages')).toBe(20);
    expect(await count('SELECT COUNT(*) AS n FROM scrape_files')).toBe(900);
    expect(
      await count(
        'SELECT COUNT(*) AS n FROM (SELECT DISTINCT company_slug, page_slug, version, scraper FROM scrape_files) AS d',
      ),
    ).toBe(900);
    const perCompany = await api.app
      .get(TransactionRunner)
      .query<{ company_slug: string; n: number | string }>(
        'SELECT company_slug, COUNT(*) AS n FROM scrape_files GROUP BY company_slug',
      );
    expect(perCompany).toHaveLength(20);
    expect(perCompany.every((row) => Number(row.n) === 45)).toBe(true);

    // The survivor stops on SIGTERM, promptly and with success, leaving nothing active.
    const stopping = Date.now();
    survivor.child.kill('SIGTERM');
    const survivorExit = await Promise.race([
      survivor.exit,
      new Promise<'timeout'>((done) => setTimeout(() => done('timeout'), 10_000)),
    ]);
    expect.soft(survivorExit, `survivor stderr:\n${survivor.stderr}`).toEqual({
      code: 0,
      signal: null,
    });
    expect(Date.now() - stopping).toBeLessThan(10_000);
    const jobs = await api.app
      .get(IngestQueue)
      .queue.getJobCounts('active', 'wait', 'delayed', 'failed', 'completed');
    expect(jobs).toMatchObject({ active: 0, wait: 0, delayed: 0, failed: 0 });
    expect(jobs.completed).toBe(batch.length);
    // The dead worker's jobs were taken over through BullMQ's stalled-job check.
    const completed = await api.app.get(IngestQueue).queue.getJobs(['completed'], 0, -1);
    const takenOver = completed.filter((job) => job.stalledCounter > 0).length;
    expect(takenOver).toBeGreaterThan(0);

    console.info(
      `crash-safety (${environment.dialect}): killed at done=${atKill.counts.done} active=${atKill.counts.active}; ` +
        `final done=${final.counts.done} duplicate=${final.counts.duplicate}, taken over ${takenOver}; ` +
        `settled ${settledAt - killedAt} ms after the kill, ${settledAt - started} ms in all; ` +
        `survivor stopped in ${Date.now() - stopping} ms`,
    );
  }, 120_000);
});
