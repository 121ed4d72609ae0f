import { request as httpRequest, type ClientRequest } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  apiReady,
  isRunning,
  showOutputOnFailure,
  startApiProcess,
  type ApiProcess,
} from './support/api-process.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';
import { startWorkerProcess, workerReady } from './support/worker-process.js';

/*
 * SIGTERM on real processes: the API stops taking connections, lets the request in flight
 * finish with its normal answer and exits 0; the worker exits 0 when idle; and a request that
 * never ends cannot hold the API past the shutdown deadline (grace time plus a 5 s margin).
 */

const environment = testEnvironment();
const children: ApiProcess[] = [];
let setup: TestApp;
let ingestKey: string;

/** Beyond the grace time, what libs/observability/src/shutdown-deadline.ts allows closing. */
const CLOSING_MARGIN_MS = 5_000;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

interface HeldRequest {
  request: ClientRequest;
  /** Sends the rest of the body. */
  finish(): void;
  answer: Promise<{ status: number; body: string }>;
}

/**
 * POST /v1/ingest/records whose body is sent in two parts: the headers and the first part now,
 * the rest on `finish()`. On its own fresh connection (no keep-alive pool).
 */
async function holdIngestRequest(api: ApiProcess): Promise<HeldRequest> {
  const body = JSON.stringify([records.company('in-flight.io')]);
  const half = Math.floor(body.length / 2);
  const url = new URL(`${api.baseUrl}/ingest/records`);
  const request = httpRequest({
    host: url.hostname,
    port: url.port,
    path: url.pathname,
    method: 'POST',
    agent: false,
    headers: {
      authorization: `Bearer ${ingestKey}`,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
  // Handled by whoever awaits it; a request abandoned for good must not fail the run.
  answer.catch(() => undefined);
  request.write(body.slice(0, half));
  await new Promise<void>((connected) =>
    request.once('socket', (s) => s.once('connect', connected)),
  );
  // Long enough for the server to have parsed the headers and be waiting for the body.
  await sleep(300);
  return { request, finish: () => request.end(body.slice(half)), answer };
}

/** A request on a new connection: its status, or the connection error's code. */
function tryNewConnection(api: ApiProcess): Promise<{ status: number } | { error: string }> {
  const url = new URL(api.baseUrl.replace(/\/v1$/, '/health/live'));
  return new Promise((resolve) => {
    const request = httpRequest({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      agent: false,
      timeout: 5_000,
    });
    request.on('response', (response) => {
      response.resume();
      resolve({ status: response.statusCode ?? 0 });
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ error: error.code ?? error.message }),
    );
    request.end();
  });
}

async function exitOf(child: ApiProcess, timeoutMs: number) {
  const timer = setTimeout(() => child.child.kill('SIGKILL'), timeoutMs);
  const [code, signal] = (await child.exit) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);
  return { code, signal };
}

async function startApi(name: string, env: Record<string, string> = {}): Promise<ApiProcess> {
  const api = await startApiProcess(name, { ...environment.env, LOG_LEVEL: 'log', ...env });
  children.push(api);
  return api;
}

beforeAll(async () => {
  // Migrates the schema and hands out the key the processes below accept.
  setup = await startTestApp(environment.config(), { withWorker: false });
  ingestKey = await setup.createKey(['ingest']);
});

afterEach(() => {
  for (const child of children) if (isRunning(child)) child.child.kill('SIGKILL');
});

afterAll(async () => {
  await Promise.all(children.map((child) => child.exit));
  await setup?.close();
  await environment.cleanup();
});

describe('SIGTERM on an API process', () => {
  it('finishes the request in flight (202), refuses new connections, and exits 0 within the grace time', async () => {
    const graceMs = 5_000;
    const api = await startApi('api', { SHUTDOWN_GRACE_MS: String(graceMs) });
    showOutputOnFailure([api]);
    await apiReady(api);

    const held = await holdIngestRequest(api);
    const signalled = Date.now();
    api.child.kill('SIGTERM');
    await sleep(500);
    expect(isRunning(api)).toBe(true);

    const late = await tryNewConnection(api);
    expect(
      'error' in late ? late.error : late.status,
      'a new connection after SIGTERM is refused or answered 503',
    ).toSatisfy((outcome: string | number) => outcome === 'ECONNREFUSED' || outcome === 503);

    held.finish();
    const answer = await held.answer;
    expect(answer.status, answer.body).toBe(202);
    expect(JSON.parse(answer.body)).toMatchObject({ accepted: 1, jobs: 1 });

    const exit = await exitOf(api, graceMs + CLOSING_MARGIN_MS + 5_000);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalled).toBeLessThan(graceMs);
    expect(api.output).not.toContain('shutdown did not finish in time');
    // The batch it accepted was queued for real.
    const batchId = (JSON.parse(answer.body) as { batch_id: string }).batch_id;
    const status = await setup.request(`/ingest/batches/${batchId}`, {
      headers: { authorization: `Bearer ${ingestKey}` },
    });
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ total: 1, counts: { waiting: 1 } });
  });

  it('exits 1 at the shutdown deadline when a request never finishes', async () => {
    const graceMs = 500;
    const api = await startApi('api-stuck', { SHUTDOWN_GRACE_MS: String(graceMs) });
    showOutputOnFailure([api]);
    await apiReady(api);

    const held = await holdIngestRequest(api);
    const signalled = Date.now();
    api.child.kill('SIGTERM');
    const exit = await exitOf(api, graceMs + CLOSING_MARGIN_MS + 10_000);
    const elapsed = Date.now() - signalled;
    held.request.destroy();

    expect(exit).toEqual({ code: 1, signal: null });
    expect(elapsed).toBeGreaterThanOrEqual(graceMs + CLOSING_MARGIN_MS - 500);
    expect(elapsed).toBeLessThan(graceMs + CLOSING_MARGIN_MS + 2_000);
    const deadline = api.output
      .split('\n')
      .filter((line) => line.includes('shutdown did not finish in time'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(deadline).toEqual([
      expect.objectContaining({ level: 50, signal: 'SIGTERM', grace_ms: graceMs }),
    ]);
  });
});

describe('SIGTERM on a worker process', () => {
  it('exits 0 promptly when idle', async () => {
    const worker = await startWorkerProcess('worker', {
      ...environment.env,
      SHUTDOWN_GRACE_MS: '5000',
    });
    children.push(worker);
    showOutputOnFailure([worker]);
    await workerReady(worker);

    const signalled = Date.now();
    worker.child.kill('SIGTERM');
    const exit = await exitOf(worker, 20_000);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalled).toBeLessThan(5_000);
    expect(worker.output).not.toContain('shutdown did not finish in time');
  });
});
