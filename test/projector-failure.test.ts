import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CompanyRegistered, streamIds, type CompanyProfile } from '#app/domain';
import { CheckpointStore, EventStore, TransactionRunner } from '#app/persistence';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { showOutputOnFailure, stopApiProcess } from './support/api-process.js';
import { parsePrometheusText } from './support/prometheus-text.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';
import { waitFor } from './support/wait-for.js';
import { startWorkerProcess, workerReady, type WorkerProcess } from './support/worker-process.js';

/*
 * A projector that cannot apply an event stops alone (the others move on), loudly (readiness,
 * metric, log line, `cli projections`) and recoverably (`cli projections:retry` after a fix);
 * a rebuild that meets such an event changes nothing. The API runs in this process, the worker
 * (ingestion and projections) in a real process of its own, whose log this test reads.
 */

const execute = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const environment = testEnvironment();
let api: TestApp;
let worker: WorkerProcess;
let transactions: TransactionRunner;

/** The CLI as an operator runs it; resolves with its exit code instead of throwing on 1. */
async function cli(...args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await execute(
      process.execPath,
      ['dist/apps/worker/src/cli.js', ...args],
      { cwd: root, env: { ...process.env, ...environment.env }, timeout: 60_000 },
    );
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, output: stdout + stderr };
  }
}

async function read(path: string): Promise<number> {
  const response = await api.request(path, {
    headers: { authorization: `Bearer ${readKey}` },
  });
  await response.arrayBuffer();
  return response.status;
}

async function ready(): Promise<{ status: number; text: string }> {
  const response = await fetch(`${new URL(api.baseUrl).origin}/health/ready`);
  return { status: response.status, text: await response.text() };
}

async function projectionFailed(): Promise<Record<string, number>> {
  const response = await fetch(`${new URL(api.baseUrl).origin}/metrics`);
  const samples = parsePrometheusText(await response.text()).series('projection_failed');
  return Object.fromEntries(samples.map((sample) => [sample.labels['projector'], sample.value]));
}

/** Every row of the read models, to compare before and after. */
async function readModels(): Promise<Record<string, unknown[]>> {
  const tables = {
    companies: 'id',
    pricing_pages: 'id',
    scrape_files: 'id',
    pricing_snapshots: 'id',
    pricing_changes: 'event_transaction_id, event_seq, change_index',
    exchange_rates: 'base, quote, date',
    plan_search_companies: 'slug',
  };
  const rows = await Promise.all(
    Object.entries(tables).map(async ([table, key]) => [
      table,
      await transactions.query(`SELECT * FROM ${table} ORDER BY ${key}`),
    ]),
  );
  return Object.fromEntries(rows) as Record<string, unknown[]>;
}

let readKey: string;

beforeAll(async () => {
  api = await startTestApp(environment.config(), { withWorker: false });
  transactions = api.app.get(TransactionRunner);
  worker = await startWorkerProcess('worker', environment.env);
  await workerReady(worker);
  readKey = await api.createKey(['read'], 'enterprise');
  await api.settled(await api.ingest([records.company('acme.io')]));
  await api.settled(await api.ingest([records.page('acme.io')]));
  await waitFor(
    'acme.io to be served',
    async () => (await read('/api/pages/acme')) === 200 || undefined,
  );
});

afterAll(async () => {
  await api?.close();
  if (worker) await stopApiProcess(worker);
  await environment.cleanup();
});

describe('a projector that cannot apply an event', () => {
  it('stops alone and loudly, and moves again after a fix and a retry', async () => {
    showOutputOnFailure([worker]);
    // The obstacle: a row put in the companies read model by hand, holding the slug that the
    // next registration needs (slugs are unique there).
    await transactions.query(
      `INSERT INTO companies (id, slug, name, category, employees, employees_min, url,
         created_at, updated_at)
       VALUES (999999, 'blocked.io', 'Planted', 'Finance', '1-10', 1, 'https://blocked.io', $1, $1)`,
      [new Date().toISOString()],
    );
    const blocked = await api.settled(await api.ingest([records.company('blocked.io')]));
    expect(blocked.counts.done).toBe(1);

    // Later records of every kind: the companies projector is stuck, the others are not.
    await api.settled(
      await api.ingest([
        records.company('later.io'),
        records.page('acme.io', 'team'),
        records.scrape('acme.io', '', '20250105'),
      ]),
    );
    // The worker appends the three records by separate jobs, in no set order: each is awaited.
    await waitFor(
      'the scrape to be served',
      async () => (await read('/api/files/acme/version/20250105')) === 200 || undefined,
    );
    await waitFor(
      'the page to be served',
      async () => (await read('/api/pages/acme.team')) === 200 || undefined,
    );

    // Loudly: readiness, the metric, the worker's log, the operator command.
    const readiness = await waitFor('readiness to fail', async () => {
      const answer = await ready();
      return answer.status === 503 ? answer : undefined;
    });
    expect(readiness.text).toMatch(/companies at event \d+/);
    expect(await read('/api/companies/later.io')).toBe(404);
    expect(await projectionFailed()).toEqual({
      companies: 1,
      pages: 0,
      'scrape-files': 0,
      'pricing-snapshots': 0,
      'pricing-changes': 0,
      'exchange-rates': 0,
      'plan-search': 0,
      'price-index': 0,
    });
    expect(worker.output).toMatch(
      /projector companies stopped: it cannot apply event \d+ \(company\.registered\.v1, stream company-blocked\.io\)/,
    );
    const status = await cli('projections');
    expect(status.code).toBe(1);
    expect(status.output).toMatch(/stopped since/);
    expect(status.output).toContain('company-blocked.io');

    // A retry before the fix stops again at the same event, and says so.
    const early = await cli('projections:retry', 'companies');
    expect(early.code).toBe(1);
    expect(early.output).toMatch(/companies stopped again at event \d+/);

    // The fix, then the retry: the companies projector applies what it held back.
    await transactions.query('DELETE FROM companies WHERE id = 999999');
    const retried = await cli('projections:retry');
    expect(retried.code, retried.output).toBe(0);
    expect(retried.output).toMatch(/retried companies: \d+ events? applied/);
    await waitFor(
      'later.io to be served',
      async () => (await read('/api/companies/later.io')) === 200 || undefined,
    );
    expect(await read('/api/companies/blocked.io')).toBe(200);
    expect((await projectionFailed())['companies']).toBe(0);
    await waitFor('readiness to recover', async () => (await ready()).status === 200 || undefined);
    expect((await cli('projections')).code).toBe(0);
  });

  it('a rebuild that meets it rolls back: the API serves exactly what it served before', async () => {
    showOutputOnFailure([worker]);
    // Readiness tolerates a small lag, and reads it at most once a second: the comparison below
    // needs every checkpoint at the end of the log.
    const eventStore = api.app.get(EventStore);
    await waitFor('every projector to catch up', async () => {
      const states = await api.app.get(CheckpointStore).states();
      for (const { failure, position } of states) {
        if (failure || (await eventStore.hasEventsAfter(position))) return undefined;
      }
      return true;
    });
    const before = await readModels();
    expect(before['companies']).toHaveLength(3);

    // An event no projector run can apply from scratch: a registration without a name.
    const slug = 'nameless.io';
    await transactions.run((tx) =>
      eventStore.append(tx, [
        {
          event: new CompanyRegistered(streamIds.company(slug), {
            slug,
            category: 'Finance',
            employees: '1-10',
            url: 'https://nameless.io',
          } as CompanyProfile),
          expectedVersion: 0,
          idempotencyKey: `planted-${slug}`,
          metadata: { batch_id: null, request_id: null, job_id: null, content_hash: 'planted' },
        },
      ]),
    );

    const rebuild = await cli('rebuild');
    expect(rebuild.code).toBe(1);
    expect(rebuild.output).toMatch(
      /rebuild rolled back, the read models are as they were: projector companies cannot apply event \d+ \(company\.registered\.v1, stream company-nameless\.io\)/,
    );
    expect(await readModels()).toEqual(before);
    expect(await read('/api/companies/acme.io')).toBe(200);
    expect(await read('/api/files/acme/version/20250105')).toBe(200);
  });
});
