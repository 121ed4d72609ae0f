import type { ApiKeyScope } from '#app/access';
import { streamIds } from '#app/domain';
import { buildDataSourceOptions, TransactionRunner } from '#app/persistence';
import { DataSource } from 'typeorm';
import { expect, onTestFinished } from 'vitest';
import type { ApiProcess } from './api-process.js';
import { pastBurstLimit } from './past-burst-limit.js';
import { records } from './records.js';
import { SteadyLoad } from './steady-load.js';
import type { BatchStatusBody } from './test-app.js';
import type { TestEnvironment } from './test-environment.js';
import { waitFor } from './wait-for.js';

/*
 * What the fault tests share: a steady load on a seeded service, an outage of a backing service
 * in the middle of it, and the promises that must hold once the fault is over (every accepted
 * record applied once; every 2xx read charged once).
 */

const REQUEST_TIMEOUT_MS = 10_000;

async function call<T>(url: string, token: string, init: RequestInit = {}): Promise<T> {
  const response = await pastBurstLimit(() =>
    fetch(url, {
      ...init,
      headers: { authorization: `Bearer ${token}`, ...init.headers },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    }),
  );
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${url} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** A key made through the admin API of the process at `baseUrl` (`.../v1`). */
function createKey(
  baseUrl: string,
  adminToken: string,
  scopes: ApiKeyScope[],
): Promise<{ id: string; key: string }> {
  return call(`${baseUrl}/admin/keys`, adminToken, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: `fault test ${scopes.join(' ')}`, plan: 'enterprise', scopes }),
  });
}

/** A key's counters, read through the admin API (which neither counts nor charges). */
function keyUsage(
  baseUrl: string,
  adminToken: string,
  id: string,
): Promise<{ hourly: { used: number }; credits: { used: number } }> {
  return call(`${baseUrl}/admin/keys/${id}/usage`, adminToken);
}

/** Runs `work` on a connection of the test file's own database, closed afterwards. */
async function withDatabase<T>(
  environment: TestEnvironment,
  work: (database: TransactionRunner) => Promise<T>,
): Promise<T> {
  const options = buildDataSourceOptions(environment.config().database);
  const dataSource = await new DataSource(options).initialize();
  try {
    return await work(new TransactionRunner(dataSource));
  } finally {
    await dataSource.destroy();
  }
}

/**
 * Companies `slugs` with a primary page each, sent through the API and waited for until the
 * read models hold every page: the steady load's scrapes and reads then find what they need.
 */
async function seedPages(
  baseUrl: string,
  ingestKey: string,
  environment: TestEnvironment,
  slugs: string[],
): Promise<{ company_slug: string; page_slug: string }[]> {
  const batch = [
    ...slugs.map((slug) => records.company(slug)),
    ...slugs.map((slug) => records.page(slug)),
  ];
  await call(`${baseUrl}/ingest/records`, ingestKey, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(batch),
  });
  await withDatabase(environment, (database) =>
    waitFor('the seeded pages to be projected', async () => {
      const [row] = await database.query<{ n: number | string }>(
        'SELECT COUNT(*) AS n FROM pricing_pages',
      );
      return Number(row?.n) === slugs.length ? true : undefined;
    }),
  );
  return slugs.map((slug) => ({ company_slug: slug, page_slug: '' }));
}

export interface LoadedService {
  load: SteadyLoad;
  ingest: { id: string; key: string };
  read: { id: string; key: string };
}

const SLUGS = ['alpha.io', 'beta.io', 'gamma.io', 'delta.io'];

/**
 * Keys made through the admin API (one to ingest, one to read), four companies with a page each
 * seeded and projected, and a steady load of new scrapes and metered reads (companies, pages,
 * and files, which answer in the coded error shape) started on the API process. The load is
 * stopped when the test ends, however it ends: left running, it would outlive the processes.
 */
export async function startSteadyLoad(
  api: ApiProcess,
  environment: TestEnvironment,
): Promise<LoadedService> {
  const adminToken = environment.env.ADMIN_TOKEN as string;
  const ingest = await createKey(api.baseUrl, adminToken, ['ingest']);
  const read = await createKey(api.baseUrl, adminToken, ['read']);
  const pages = await seedPages(api.baseUrl, ingest.key, environment, SLUGS);
  const load = new SteadyLoad({
    api: api.baseUrl,
    ingestKey: ingest.key,
    readKey: read.key,
    pages,
    readPaths: [
      `/api/companies/${SLUGS[0]}`,
      `/api/pages/${SLUGS[1]}`,
      `/api/files/${SLUGS[2]}/month/2020M01`,
    ],
  });
  onTestFinished(() => load.stop());
  await load.start();
  return { load, ingest, read };
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * A backing service's outage in the middle of the load: a backlog posted first (so that the
 * worker is at work when the fault strikes), `stop`, four seconds down, `start`, then the load
 * runs on until the API has accepted a batch and served a read again, two seconds more, and
 * stops. Requests are marked `outage` from the stop, `after` from the start. Returns the status
 * `/health/ready` answered during the outage (a hang past ten seconds fails).
 */
export async function throughOutage(
  api: ApiProcess,
  load: SteadyLoad,
  { stop, start }: { stop: () => Promise<void>; start: () => Promise<void> },
): Promise<{ readyDuringOutage: number }> {
  await load.ingestNow(500);
  load.mark('outage');
  await stop();
  await sleep(4_000);
  const ready = await fetch(`${api.baseUrl.replace(/\/v1$/, '')}/health/ready`, {
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  await ready.arrayBuffer();
  await start();
  load.mark('after');
  // No process is restarted: each must find the service again by itself.
  await waitFor(
    'a batch accepted and a read served after the restart',
    async () => {
      const served = (status: number) =>
        load.answers.some((answer) => answer.phase === 'after' && answer.status === status);
      return served(202) && served(200) ? true : undefined;
    },
    30_000,
    100,
  );
  await sleep(2_000);
  await load.stop();
  return { readyDuringOutage: ready.status };
}

/**
 * Every record of every accepted batch made it, once: its batch settles with each record done
 * or a duplicate (none failed, none lost from the queue), the log holds exactly one event of
 * its stream, and its read model holds its row once the projections have caught up. Returns
 * the batches' counts of done and duplicate records.
 */
export async function expectAcceptedRecordsApplied(
  api: ApiProcess,
  environment: TestEnvironment,
  { load, ingest }: LoadedService,
  timeoutMs = 60_000,
): Promise<{ done: number; duplicate: number }> {
  const batches = load.accepted;
  const settled = new Map<string, BatchStatusBody>();
  const unsettled = await lastReading(
    async () => {
      for (const { batchId } of batches) {
        if (settled.has(batchId)) continue;
        const status = await call<BatchStatusBody>(
          `${api.baseUrl}/ingest/batches/${batchId}`,
          ingest.key,
        );
        if (!status.complete) return [batchId];
        settled.set(batchId, status);
      }
      return [];
    },
    (incomplete) => incomplete.length === 0,
    timeoutMs,
  );
  expect(unsettled, 'batches with records still waiting or active').toEqual([]);
  const failedOrLost = [...settled.values()].filter(
    ({ total, counts }) =>
      counts.failed > 0 || counts.unknown > 0 || counts.done + counts.duplicate !== total,
  );
  expect(failedOrLost, 'batches with a failed or lost record').toEqual([]);

  const accepted = batches.flatMap((batch) => batch.records);
  const naturalKey = (scrape: ScrapeKey) =>
    streamIds.scrape(scrape.company_slug, scrape.page_slug, scrape.version, scrape.scraper);
  const streams = accepted.map(naturalKey);
  await withDatabase(environment, async (database) => {
    const eventsPerStream = new Map<string, number>();
    for (let start = 0; start < streams.length; start += 1_000) {
      const chunk = streams.slice(start, start + 1_000);
      const rows = await database.query<{ stream_id: string; n: number | string }>(
        `SELECT stream_id, COUNT(*) AS n FROM events
         WHERE stream_id IN (${chunk.map((_, index) => `$${index + 1}`).join(', ')})
         GROUP BY stream_id`,
        chunk,
      );
      for (const row of rows) eventsPerStream.set(row.stream_id, Number(row.n));
    }
    const notOnce = streams.filter((stream) => eventsPerStream.get(stream) !== 1);
    expect(notOnce, 'accepted records not in the log exactly once').toEqual([]);

    // The projections may still be catching up with what the worker appended last.
    const missing = await lastReading(
      async () => {
        const rows = await database.query<ScrapeKey>(
          'SELECT company_slug, page_slug, version, scraper FROM scrape_files',
        );
        const projected = new Set(rows.map(naturalKey));
        return streams.filter((stream) => !projected.has(stream));
      },
      (absent) => absent.length === 0,
      timeoutMs,
    );
    expect(missing, 'accepted records missing from the read models').toEqual([]);
  });
  // Duplicates are records whose job ran again after its first run's events were committed.
  const statuses = [...settled.values()];
  return {
    done: statuses.reduce((sum, { counts }) => sum + counts.done, 0),
    duplicate: statuses.reduce((sum, { counts }) => sum + counts.duplicate, 0),
  };
}

interface ScrapeKey {
  company_slug: string;
  page_slug: string;
  version: string;
  scraper: string;
}

/** Reads until `done` holds of the reading or time is up; returns the last reading. */
async function lastReading<T>(
  read: () => Promise<T>,
  done: (reading: T) => boolean,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let reading = await read();
  while (!done(reading) && Date.now() < deadline) {
    await new Promise((next) => setTimeout(next, 200));
    reading = await read();
  }
  return reading;
}

/**
 * The read key was charged once for each 2xx read: none of those charges is lost, and nothing
 * else is charged. A request answered 503 because Redis failed may have been counted before its
 * answer was lost; the API gives such a charge back by its id once Redis answers again, so the
 * counters are read until they settle.
 */
export async function expectReadsChargedOnce(
  api: ApiProcess,
  environment: TestEnvironment,
  { load, read }: LoadedService,
): Promise<void> {
  const charged = load.chargedReads();
  const usage = await lastReading(
    () => keyUsage(api.baseUrl, environment.env.ADMIN_TOKEN as string, read.id),
    (reading) => reading.credits.used === charged && reading.hourly.used === charged,
    15_000,
  );
  expect(usage.credits.used, 'credits charged vs 2xx reads').toBe(charged);
  expect(usage.hourly.used, 'hourly count vs 2xx reads').toBe(charged);
}
