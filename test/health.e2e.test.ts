import { TransactionRunner } from '#app/persistence';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectionRunner } from '../apps/worker/src/projections/projection-runner.js';
import { showOutputOnFailure, stopApiProcess } from './support/api-process.js';
import { parsePrometheusText } from './support/prometheus-text.js';
import { records } from './support/records.js';
import { OwnRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment, type TestEnvironment } from './support/test-environment.js';
import { waitFor } from './support/wait-for.js';
import { startWorkerProcess, workerReady, type WorkerProcess } from './support/worker-process.js';

/*
 * /health/live and /health/ready (terminus): ready names each check, and answers 503 with the
 * failing one when Redis is away, a projection is far behind, or migrations are pending; it
 * recovers without a restart. The worker process serves the same on its own port.
 */

interface IndicatorState {
  status: 'up' | 'down';
  message?: string;
  [detail: string]: unknown;
}

interface ReadinessBody {
  status: 'ok' | 'error';
  info: Record<string, IndicatorState>;
  error: Record<string, IndicatorState>;
  details: Record<string, IndicatorState>;
}

const CHECKS = ['database', 'migrations', 'redis', 'queues', 'projections'];
const PROJECTORS = [
  'companies',
  'exchange-rates',
  'pages',
  'pricing-changes',
  'pricing-snapshots',
  'scrape-files',
  'plan-search',
  'price-index',
];

async function probe(
  origin: string,
  path: '/health/live' | '/health/ready',
  timeoutMs = 10_000,
): Promise<{ status: number; body: ReadinessBody; contentType: string | null }> {
  const response = await fetch(`${origin}${path}`, { signal: AbortSignal.timeout(timeoutMs) });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    body: (await response.json()) as ReadinessBody,
  };
}

const originOf = (api: TestApp) => new URL(api.baseUrl).origin;

describe('/health/live and /health/ready', () => {
  const environment = testEnvironment({ READY_MAX_PROJECTION_LAG: '2' });
  let api: TestApp;

  beforeAll(async () => {
    api = await startTestApp(environment.config());
  });

  afterAll(async () => {
    await api?.close();
    await environment.cleanup();
  });

  it('live answers 200 {status: "ok"} without a key, outside /v1', async () => {
    const live = await probe(originOf(api), '/health/live');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'ok' });
    const versioned = await fetch(`${api.baseUrl}/health/live`);
    await versioned.arrayBuffer();
    expect(versioned.status).toBe(404);
  });

  it('ready answers 200 with every check up', async () => {
    const ready = await probe(originOf(api), '/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.contentType).toMatch(/^application\/json/);
    expect(ready.body.status).toBe('ok');
    expect(ready.body.error).toEqual({});
    expect(Object.keys(ready.body.info).sort()).toEqual([...CHECKS].sort());
    for (const check of CHECKS) expect(ready.body.info[check]?.status, check).toBe('up');
    expect(ready.body.details).toEqual(ready.body.info);
    expect(ready.body.info.queues).toMatchObject({
      ingest: { waiting: 0, active: 0, failed: 0, completed: 0 },
    });
    expect(ready.body.info.projections).toMatchObject({
      status: 'up',
      companies: 0,
      'exchange-rates': 0,
      pages: 0,
      'pricing-changes': 0,
      'pricing-snapshots': 0,
      'scrape-files': 0,
      'plan-search': 0,
      'price-index': 0,
    });
  });
});

describe('/health/ready when a projection is far behind (READY_MAX_PROJECTION_LAG=2)', () => {
  const environment = testEnvironment({ READY_MAX_PROJECTION_LAG: '2' });
  let api: TestApp;
  /** Every event's log position, in the order projectors read them. */
  let positions: { seq: string; transactionId: string }[];
  let saved: { last_seq: string; last_transaction_id: string };

  const setCheckpoint = (position: { seq: string; transactionId: string }) =>
    api.app
      .get(TransactionRunner)
      .query(
        'UPDATE projection_checkpoints SET last_seq = $1, last_transaction_id = $2 WHERE name = $3',
        [position.seq, position.transactionId, 'companies'],
      );

  /** The lag is read at most once a second: the first probe that shows the moved checkpoint. */
  const readyShowing = (companiesBehind: number) =>
    waitFor(
      `readiness to show companies ${companiesBehind} behind`,
      async () => {
        const ready = await probe(originOf(api), '/health/ready');
        const shown = ready.body.details.projections;
        const message = String(shown?.message ?? '');
        return shown?.companies === companiesBehind ||
          message.includes(`companies ${companiesBehind},`)
          ? ready
          : undefined;
      },
      5_000,
      100,
    );

  beforeAll(async () => {
    // Five events, projected by an app with the worker...
    const writer = await startTestApp(environment.config());
    try {
      for (const batch of [
        [records.company('ready-a.io'), records.company('ready-b.io')],
        [records.page('ready-a.io'), records.page('ready-b.io')],
        [records.scrape('ready-a.io', '', '20250105')],
      ]) {
        expect((await writer.settled(await writer.ingest(batch))).counts.done).toBe(batch.length);
      }
      await writer.app.get(ProjectionRunner).catchUp(undefined, { wait: true });
      await waitFor(
        'the projections to catch up',
        async () => {
          const ready = await probe(originOf(writer), '/health/ready');
          const lag = ready.body.details.projections ?? {};
          return PROJECTORS.every((name) => lag[name] === 0) ? true : undefined;
        },
        30_000,
        200,
      );
    } finally {
      await writer.close();
    }
    // ...then an API alone on the same database: nothing projects while the test moves the
    // companies checkpoint (that table is not append-only).
    api = await startTestApp(environment.config(), { withWorker: false });
    const transactions = api.app.get(TransactionRunner);
    positions = (
      await transactions.query<{ seq: number | string; transaction_id: number | string }>(
        'SELECT seq, transaction_id FROM events ORDER BY transaction_id, seq',
      )
    ).map((row) => ({ seq: String(row.seq), transactionId: String(row.transaction_id) }));
    expect(positions).toHaveLength(5);
    const [row] = await transactions.query<{ last_seq: string; last_transaction_id: string }>(
      "SELECT last_seq, last_transaction_id FROM projection_checkpoints WHERE name = 'companies'",
    );
    saved = {
      last_seq: String(row?.last_seq),
      last_transaction_id: String(row?.last_transaction_id),
    };
    expect(saved.last_seq).toBe(positions[4]?.seq);
  });

  afterAll(async () => {
    await api?.close();
    await environment.cleanup();
  });

  it('stays ready at the limit (2 events behind)', async () => {
    await setCheckpoint(positions[2]!);
    const ready = await readyShowing(2);
    expect(ready.status).toBe(200);
    expect(ready.body.info.projections).toMatchObject({ status: 'up', companies: 2, pages: 0 });
  });

  it('answers 503 one event past it, naming the projection check and the projector', async () => {
    await setCheckpoint(positions[1]!);
    const ready = await readyShowing(3);
    expect(ready.status).toBe(503);
    expect(ready.contentType).toMatch(/^application\/json/);
    expect(ready.body.status).toBe('error');
    expect(ready.body.error).toMatchObject({
      projections: {
        status: 'down',
        message:
          'more than 2 events behind (companies 3, pages 0, scrape-files 0, pricing-snapshots 0, pricing-changes 0, exchange-rates 0, plan-search 0, price-index 0)',
      },
    });
    expect(Object.keys(ready.body.info).sort()).toEqual([
      'database',
      'migrations',
      'queues',
      'redis',
    ]);
    expect(ready.body.details.projections?.status).toBe('down');
  });

  it('reports the same lag in /metrics, with the age of the oldest unapplied event', async () => {
    await setCheckpoint(positions[1]!);
    await readyShowing(3);
    const response = await fetch(`${originOf(api)}/metrics`);
    const metrics = parsePrometheusText(await response.text());
    expect(metrics.value('projection_lag_events', { projector: 'companies' })).toBe(3);
    expect(metrics.value('projection_lag_events', { projector: 'pages' })).toBe(0);
    expect(metrics.value('projection_lag_seconds', { projector: 'companies' })).toBeGreaterThan(0);
    expect(metrics.value('projection_lag_seconds', { projector: 'pages' })).toBe(0);
  });

  it('counts every event when a checkpoint is back at the start, and recovers without a restart', async () => {
    await setCheckpoint({ seq: '0', transactionId: '0' });
    const behind = await readyShowing(5);
    expect(behind.status).toBe(503);
    expect(behind.body.error.projections).toMatchObject({ status: 'down' });

    await setCheckpoint({ seq: saved.last_seq, transactionId: saved.last_transaction_id });
    const ready = await readyShowing(0);
    expect(ready.status).toBe(200);
    expect(ready.body.info.projections).toMatchObject({ status: 'up', companies: 0 });
  });

  it('answers 503 while a migration is pending (its row gone from the migrations table)', async () => {
    const transactions = api.app.get(TransactionRunner);
    const [latest] = await transactions.query<{ id: number; timestamp: string; name: string }>(
      'SELECT id, timestamp, name FROM migrations ORDER BY timestamp DESC LIMIT 1',
    );
    expect(latest).toBeDefined();
    await transactions.query('DELETE FROM migrations WHERE id = $1', [latest!.id]);
    try {
      const pending = await probe(originOf(api), '/health/ready');
      expect(pending.status).toBe(503);
      expect(pending.body.error).toMatchObject({
        migrations: { status: 'down', message: 'migrations are pending' },
      });
      expect(pending.body.info.database?.status).toBe('up');
    } finally {
      await transactions.query('INSERT INTO migrations (id, timestamp, name) VALUES ($1, $2, $3)', [
        latest!.id,
        latest!.timestamp,
        latest!.name,
      ]);
    }
    expect((await probe(originOf(api), '/health/ready')).status).toBe(200);
  });
});

describe('/health/ready while Redis is unreachable', () => {
  let redis: OwnRedis;
  let environment: TestEnvironment;
  let api: TestApp;

  beforeAll(async () => {
    // A Redis of this file's own, so stopping it disturbs no other test.
    redis = await OwnRedis.create();
    await redis.start();
    environment = testEnvironment({ REDIS_URL: redis.url });
    api = await startTestApp(environment.config(), { withWorker: false });
  });

  afterAll(async () => {
    // Closing and cleaning up need it; a test that failed midway may have left it stopped.
    await redis?.start().catch(() => undefined);
    await api?.close();
    await environment?.cleanup();
    await redis?.stop();
  });

  it('answers 503 with redis and queues down within seconds, and ready again once Redis is back', async () => {
    expect((await probe(originOf(api), '/health/ready')).status).toBe(200);

    await redis.stop();
    const started = Date.now();
    const down = await probe(originOf(api), '/health/ready');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(down.status).toBe(503);
    expect(down.body.status).toBe('error');
    expect(Object.keys(down.body.error).sort()).toEqual(['queues', 'redis']);
    expect(down.body.error.redis).toMatchObject({ status: 'down', message: expect.any(String) });
    expect(down.body.error.queues).toMatchObject({ status: 'down', message: expect.any(String) });
    expect(down.body.info.database?.status).toBe('up');
    expect(down.body.info.projections?.status).toBe('up');
    // Live says the process runs: restarting it would not bring Redis back.
    expect((await probe(originOf(api), '/health/live')).status).toBe(200);

    await redis.start();
    const ready = await waitFor(
      'ready again',
      async () => {
        const response = await probe(originOf(api), '/health/ready');
        return response.status === 200 ? response : undefined;
      },
      15_000,
      200,
    );
    expect(ready.body.status).toBe('ok');
    expect(ready.body.info.redis?.status).toBe('up');
  });

  it('still serves /metrics during the outage (the queue gauge cannot be read, the rest can)', async () => {
    await redis.stop();
    try {
      const started = Date.now();
      const response = await fetch(`${originOf(api)}/metrics`, {
        signal: AbortSignal.timeout(10_000),
      });
      const text = await response.text();
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(response.status, text.slice(0, 500)).toBe(200);
      const metrics = parsePrometheusText(text);
      expect(metrics.series('http_requests_total').length).toBeGreaterThan(0);
      expect(metrics.series('process_cpu_user_seconds_total')).toHaveLength(1);
    } finally {
      await redis.start();
    }
  });
});

describe('the worker process', () => {
  const environment = testEnvironment();
  let api: TestApp;
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    // The API alone migrates first, and has no worker of its own: the process takes the jobs.
    api = await startTestApp(environment.config(), { withWorker: false });
  });

  afterAll(async () => {
    if (worker) await stopApiProcess(worker);
    await api?.close();
    await environment.cleanup();
  });

  it('serves /health/live, /health/ready and /metrics on WORKER_METRICS_PORT', async () => {
    worker = await startWorkerProcess('worker', environment.env);
    showOutputOnFailure([worker]);
    await workerReady(worker);

    const live = await probe(worker.baseUrl, '/health/live');
    expect(live).toMatchObject({ status: 200, body: { status: 'ok' } });
    const ready = await probe(worker.baseUrl, '/health/ready');
    expect(ready.status).toBe(200);
    for (const check of CHECKS) expect(ready.body.info[check]?.status, check).toBe('up');
    expect(ready.body.info.projections).toMatchObject(
      Object.fromEntries(PROJECTORS.map((name) => [name, expect.any(Number)])),
    );
    // No API on this port.
    const api404 = await fetch(`${worker.baseUrl}/v1/api/openapi.json`);
    await api404.arrayBuffer();
    expect(api404.status).toBe(404);

    const batch = await api.ingest([records.company('worker-metrics.io')]);
    expect((await api.settled(batch)).counts.done).toBe(1);
    const metrics = await waitFor('the worker to count its record', async () => {
      const response = await fetch(`${worker!.baseUrl}/metrics`);
      expect(response.headers.get('content-type')).toBe(Registry.PROMETHEUS_CONTENT_TYPE);
      const parsed = parsePrometheusText(await response.text());
      return parsed.value('ingest_records_total', { type: 'company', outcome: 'appended' }) === 1
        ? parsed
        : undefined;
    });
    expect(metrics.value('events_appended_total', { type: 'company.registered.v1' })).toBe(1);
    expect(metrics.value('queue_jobs', { queue: 'ingest', state: 'completed' })).toBe(1);
    // The worker answers no API request, so it counts only its probes and scrapes.
    const routes = metrics.series('http_requests_total').map((sample) => sample.labels.route);
    const probes = ['/health/live', '/health/ready', '/metrics', 'unmatched'];
    expect(routes.filter((route) => !probes.includes(route ?? ''))).toEqual([]);
  });
});
