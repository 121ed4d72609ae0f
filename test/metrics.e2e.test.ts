import { IngestQueue } from '#app/contracts';
import {
  CompanyRegistered,
  PricingExtracted,
  PricingPageRegistered,
  ScrapeCaptured,
} from '#app/domain';
import { Registry } from 'prom-client';
import { JOB_STATES } from '#app/observability';
import { PROJECTOR_NAMES } from '#app/persistence';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectionRunner } from '../apps/worker/src/projections/projection-runner.js';
import { openApiValidator } from './support/openapi-validator.js';
import { parsePrometheusText, type Exposition } from './support/prometheus-text.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';
import { waitFor } from './support/wait-for.js';

/*
 * A known workload through one fresh application (its own metrics registry, so every counter
 * starts at 0), then GET /metrics and exact values: requests by route template and status,
 * the latency histogram's counts, credits charged by plan, ingest records by type and outcome,
 * events appended by type, queue depth as BullMQ reports it, and projection lag.
 */

const ATTEMPTS = 3;
const environment = testEnvironment({ INGEST_ATTEMPTS: String(ATTEMPTS), INGEST_BACKOFF_MS: '50' });
let api: TestApp;
let origin: string;

const VERSION = '20250105';
const CHARGED_READS = 3;
const NOT_FOUND_READS = 2;
const PRICING_READS = 2;

/** The route templates of the paths this file requests (after /v1), as Fastify names them. */
const TEMPLATES: [RegExp, string][] = [
  [/^\/ingest\/records$/, '/v1/ingest/records'],
  [/^\/ingest\/batches\/[^/]+$/, '/v1/ingest/batches/:batchId'],
  [/^\/api\/companies(\?.*)?$/, '/v1/api/companies'],
  [/^\/api\/companies\/[^/?]+(\?.*)?$/, '/v1/api/companies/:slug'],
  [/^\/api\/pricing\/[^/?]+(\?.*)?$/, '/v1/api/pricing/:slug'],
];

/** Every answer this file received, by "route method status". */
const tally = new Map<string, number>();
let scrapes = 0;

function templateOf(path: string): string {
  const found = TEMPLATES.find(([pattern]) => pattern.test(path));
  if (!found) throw new Error(`no route template known for ${path}`);
  return found[1];
}

async function scrape(): Promise<{ response: Response; metrics: Exposition }> {
  const response = await fetch(`${origin}/metrics`);
  scrapes++;
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return { response, metrics: parsePrometheusText(text) };
}

function tallied(route: string, method = 'GET', status?: number): number {
  let total = 0;
  for (const [key, count] of tally) {
    const [r, m, s] = key.split(' ');
    if (r === route && m === method && (status === undefined || Number(s) === status)) {
      total += count;
    }
  }
  return total;
}

const get = (path: string, key: string) =>
  api.request(path, { headers: { authorization: `Bearer ${key}` } });

beforeAll(async () => {
  // Count every request this file sends, the test app's own (batch status polls) included.
  api = await startTestApp(environment.config(), {
    onAnswer(request, response) {
      const url = new URL(request.url);
      const path = `${url.pathname.slice('/v1'.length)}${url.search}`;
      const key = `${templateOf(path)} ${request.method} ${response.status}`;
      tally.set(key, (tally.get(key) ?? 0) + 1);
    },
  });
  origin = new URL(api.baseUrl).origin;
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

describe('GET /metrics', () => {
  it('is public Prometheus text, outside /v1, and not in the OpenAPI document', async () => {
    const response = await fetch(`${origin}/metrics`);
    scrapes++;
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(Registry.PROMETHEUS_CONTENT_TYPE);
    const metrics = parsePrometheusText(await response.text());
    expect(metrics.types.get('http_requests_total')).toBe('counter');
    expect(metrics.types.get('http_request_duration_seconds')).toBe('histogram');
    expect(metrics.types.get('credits_charged_total')).toBe('counter');
    expect(metrics.types.get('ingest_records_total')).toBe('counter');
    expect(metrics.types.get('events_appended_total')).toBe('counter');
    expect(metrics.types.get('queue_jobs')).toBe('gauge');
    expect(metrics.types.get('projection_lag_events')).toBe('gauge');
    expect(metrics.types.get('projection_lag_seconds')).toBe('gauge');
    // Process metrics come with it.
    expect(metrics.series('process_cpu_user_seconds_total')).toHaveLength(1);

    const versioned = await fetch(`${api.baseUrl}/metrics`);
    await versioned.arrayBuffer();
    expect(versioned.status).toBe(404);
    // The test app's response check skips what the document does not describe.
    const validator = await openApiValidator(api.baseUrl);
    expect(validator.route('GET', '/metrics')).toBeNull();
    expect(validator.route('GET', '/health/ready')).toBeNull();
  });
});

describe('after a known workload', () => {
  const companies = [records.company('metrics-a.io'), records.company('metrics-b.io')];
  const batches: Record<string, string> = {};
  let readKey: string;
  let final: Exposition;

  beforeAll(async () => {
    // One settled batch per type, so nothing waits for a parent and no job is retried.
    const ordered = [
      ['companies', companies],
      ['pages', [records.page('metrics-a.io'), records.page('metrics-b.io')]],
      ['scrape', [records.scrape('metrics-a.io', '', VERSION, { score: 3 })]],
      ['pricing', [records.pricing('metrics-a.io', '', VERSION)]],
    ] as const;
    for (const [name, batch] of ordered) {
      batches[name] = await api.ingest([...batch]);
      const status = await api.settled(batches[name]);
      expect(status.counts, name).toMatchObject({ done: batch.length, failed: 0, duplicate: 0 });
    }
    // The same records again are new jobs, which the worker reports duplicate: the log holds them.
    batches.again = await api.ingest(companies);
    expect((await api.settled(batches.again)).counts).toMatchObject({ duplicate: 2, done: 0 });
    // A pipeline's own job for a record already in the log: the worker reports a duplicate.
    const queue = api.app.get(IngestQueue).queue;
    await queue.add(
      'company',
      { record: records.company('metrics-a.io'), batchId: null, requestId: null },
      { jobId: 'pipeline-metrics-a' },
    );
    await waitFor('the pipeline job to complete', async () =>
      (await queue.getJobState('pipeline-metrics-a')) === 'completed' ? true : undefined,
    );
    // A page whose company never comes: retried, then failed for good.
    batches.orphan = await api.ingest([records.page('metrics-orphan.io')]);
    expect((await api.settled(batches.orphan)).counts.failed).toBe(1);
    // A chunk run at every attempt for its orphan: its company is counted once.
    batches.mixed = await api.ingest([
      records.company('metrics-mixed.io'),
      records.page('metrics-orphan-too.io'),
    ]);
    expect((await api.settled(batches.mixed)).counts).toMatchObject({ done: 1, failed: 1 });
    // Other content under a known natural key: refused at once, without retry.
    batches.conflict = await api.ingest([
      records.scrape('metrics-a.io', '', VERSION, { score: 9 }),
    ]);
    expect((await api.settled(batches.conflict)).counts.failed).toBe(1);

    await api.app.get(ProjectionRunner).catchUp(undefined, { wait: true });
    // On PostgreSQL another file's open transaction can hold a projection back for a while.
    await waitFor(
      'every projection to catch up',
      async () => {
        const { metrics } = await scrape();
        const lag = metrics.series('projection_lag_events');
        return lag.length === PROJECTOR_NAMES.length && lag.every((sample) => sample.value === 0)
          ? true
          : undefined;
      },
      30_000,
      200,
    );

    readKey = await api.createKey(['read'], 'pro');
    for (let i = 0; i < CHARGED_READS; i++) {
      expect((await get('/api/companies/metrics-a.io', readKey)).status).toBe(200);
    }
    for (let i = 0; i < PRICING_READS; i++) {
      expect((await get(`/api/pricing/metrics-a.io?version=${VERSION}`, readKey)).status).toBe(200);
    }
    for (let i = 0; i < NOT_FOUND_READS; i++) {
      expect((await get('/api/companies/nowhere-metrics.io', readKey)).status).toBe(404);
    }
    expect((await get('/api/companies?limit=500', readKey)).status).toBe(400);
    const noKey = await api.request('/api/companies');
    expect(noKey.status).toBe(401);

    // Each record once as its job ends, and a waiting one at each attempt: the orphan pages.
    const recordsDecided = 2 + 2 + 1 + 1 + 2 + 1 + ATTEMPTS + (1 + ATTEMPTS) + 1;
    final = await waitFor('every record to be counted', async () => {
      const { metrics } = await scrape();
      const counted = metrics.series('ingest_records_total').reduce((n, s) => n + s.value, 0);
      return counted === recordsDecided ? metrics : undefined;
    });
  });

  it('counts requests by route template, method and status', () => {
    const series = final.series('http_requests_total');
    for (const [key, count] of tally) {
      const [route, method, status] = key.split(' ') as [string, string, string];
      expect(final.value('http_requests_total', { route, method, status }), key).toBe(count);
    }
    expect(
      final.value('http_requests_total', {
        route: '/v1/api/companies/:slug',
        method: 'GET',
        status: '200',
      }),
    ).toBe(CHARGED_READS);
    expect(
      final.value('http_requests_total', {
        route: '/v1/api/companies/:slug',
        method: 'GET',
        status: '404',
      }),
    ).toBe(NOT_FOUND_READS);
    expect(
      final.value('http_requests_total', {
        route: '/v1/ingest/records',
        method: 'POST',
        status: '202',
      }),
    ).toBe(8);
    // The scrapes before this one (a scrape's own request is counted once answered).
    expect(
      final.value('http_requests_total', { route: '/metrics', method: 'GET', status: '200' }),
    ).toBe(scrapes - 1);
    // Raw paths never become labels: only templates, and one label for what matched no route.
    const routes = new Set(series.map((sample) => sample.labels.route));
    expect([...routes].sort()).toEqual(
      [
        ...new Set([...tally.keys()].map((key) => key.split(' ')[0] as string)),
        '/metrics',
        '/v1/api/openapi.json',
        'unmatched',
      ].sort(),
    );
  });

  it('observes every request in the latency histogram of its route', () => {
    for (const route of [
      '/v1/api/companies/:slug',
      '/v1/api/pricing/:slug',
      '/v1/ingest/batches/:batchId',
    ]) {
      const where = { route, method: 'GET' };
      const count = final.value('http_request_duration_seconds_count', where);
      expect(count, route).toBe(tallied(route));
      expect(final.value('http_request_duration_seconds_bucket', { ...where, le: '+Inf' })).toBe(
        count,
      );
      expect(final.value('http_request_duration_seconds_sum', where)).toBeGreaterThan(0);
      // Buckets are cumulative.
      const buckets = final
        .series('http_request_duration_seconds_bucket', where)
        .map((sample) => sample.value);
      expect(buckets).toEqual([...buckets].sort((a, b) => a - b));
    }
    expect(
      final.value('http_request_duration_seconds_count', {
        route: '/v1/ingest/records',
        method: 'POST',
      }),
    ).toBe(tallied('/v1/ingest/records', 'POST'));
  });

  it('counts credits charged by plan: 2xx metered reads only, refunds and free routes not', () => {
    expect(final.value('credits_charged_total', { plan: 'pro' })).toBe(
      CHARGED_READS + PRICING_READS,
    );
    // Batch status polls and ingestion use an enterprise key on routes that cost nothing.
    expect(final.series('credits_charged_total').map((sample) => sample.labels.plan)).toEqual([
      'pro',
    ]);
  });

  it('counts ingest records by type and outcome', () => {
    const jobs = Object.fromEntries(
      final
        .series('ingest_records_total')
        .map((sample) => [`${sample.labels.type}/${sample.labels.outcome}`, sample.value]),
    );
    expect(jobs).toMatchObject({
      'company/appended': 3,
      'company/duplicate': 3,
      'page/appended': 2,
      'page/retrying': 2 * (ATTEMPTS - 1),
      'page/failed': 2,
      'scrape/appended': 1,
      'pricing/appended': 1,
    });
  });

  it('counts a job refused without retry (a conflict) as failed, not retrying', () => {
    // BullMQ does not retry an UnrecoverableError, whatever attempts are left: it failed for good.
    const scrape = (outcome: string) =>
      final.value('ingest_records_total', { type: 'scrape', outcome });
    expect({ failed: scrape('failed'), retrying: scrape('retrying') }).toEqual({
      failed: 1,
      retrying: undefined,
    });
  });

  it('counts events appended by event type', () => {
    const events = Object.fromEntries(
      final.series('events_appended_total').map((sample) => [sample.labels.type, sample.value]),
    );
    expect(events).toEqual({
      [CompanyRegistered.TYPE]: 3,
      [PricingPageRegistered.TYPE]: 2,
      [ScrapeCaptured.TYPE]: 1,
      [PricingExtracted.TYPE]: 1,
    });
  });

  it('reports queue depth as BullMQ counts it', async () => {
    const counts = await api.app.get(IngestQueue).queue.getJobCounts();
    const { metrics } = await scrape();
    for (const state of JOB_STATES) {
      expect(metrics.value('queue_jobs', { queue: 'ingest', state }), state).toBe(
        counts[state] ?? 0,
      );
    }
    // One chunk each: the 2 companies, the 2 pages, a scrape, an extraction, the 2 companies
    // again and the pipeline's duplicate; the orphan page, the chunk with an orphan page and the
    // conflicting scrape.
    expect(metrics.value('queue_jobs', { queue: 'ingest', state: 'completed' })).toBe(6);
    expect(metrics.value('queue_jobs', { queue: 'ingest', state: 'failed' })).toBe(3);
    expect(metrics.value('queue_jobs', { queue: 'ingest', state: 'waiting' })).toBe(0);
  });

  it('reports no projection lag once every projector has caught up', () => {
    const lag = Object.fromEntries(
      final
        .series('projection_lag_events')
        .map((sample) => [sample.labels.projector, sample.value]),
    );
    expect(lag).toEqual({
      companies: 0,
      'exchange-rates': 0,
      pages: 0,
      'pricing-changes': 0,
      'pricing-snapshots': 0,
      'scrape-files': 0,
      'plan-search': 0,
      'price-index': 0,
    });
    const seconds = Object.fromEntries(
      final
        .series('projection_lag_seconds')
        .map((sample) => [sample.labels.projector, sample.value]),
    );
    expect(seconds).toEqual({
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
