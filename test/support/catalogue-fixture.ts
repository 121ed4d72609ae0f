import { isDeepStrictEqual } from 'node:util';
import type { components } from '#app/client';
import type { IngestRecord } from '#app/contracts';
import { compositePageSlug } from '#app/domain';
import { ExchangeRateReader, TransactionRunner } from '#app/persistence';
import { ProjectionRunner } from '../../apps/worker/src/projections/projection-runner.js';
import type { TestApp } from './test-app.js';
import { waitFor } from './wait-for.js';

/** Records are sent in dependency order, one settled batch per type, so none has to wait. */
const ORDER: IngestRecord['type'][] = ['company', 'page', 'scrape', 'pricing', 'exchange_rate'];

/**
 * Sends records through the real ingestion path and waits until the API shows them: each
 * batch settled without a failure, the projections caught up, and every record visible.
 * On PostgreSQL a projection holds back events younger than the oldest open transaction of
 * the server (any test file's), so one catch-up may stop short: hence the polling.
 */
export async function ingestAndProject(api: TestApp, batch: IngestRecord[]): Promise<void> {
  for (const type of ORDER) {
    const ofType = batch.filter((record) => record.type === type);
    if (ofType.length === 0) continue;
    const status = await api.settled(await api.ingest(ofType));
    if (
      status.counts.failed > 0 ||
      status.counts.done + status.counts.duplicate !== ofType.length
    ) {
      throw new Error(`ingesting ${type} records failed: ${JSON.stringify(status)}`);
    }
  }
  await api.app.get(ProjectionRunner).catchUp(undefined, { wait: true });
  const key = await probeKey(api);
  try {
    await waitFor('the ingested records to be visible through the API', async () => {
      for (const record of batch) if (!(await isVisible(api, key, record))) return undefined;
      return true;
    });
  } catch (error) {
    throw new Error(`${(error as Error).message}; ${await projectionState(api, key, batch)}`);
  }
}

/** What a timed-out wait saw: the records still missing, and where the projections stand. */
async function projectionState(api: TestApp, key: string, batch: IngestRecord[]): Promise<string> {
  const missing: string[] = [];
  for (const record of batch) {
    if (!(await isVisible(api, key, record))) missing.push(JSON.stringify(record).slice(0, 200));
  }
  const transactions = api.app.get(TransactionRunner);
  const checkpoints = await transactions.query(
    'SELECT name, last_seq, last_transaction_id FROM projection_checkpoints ORDER BY name',
  );
  const logEnd = await transactions.query(
    'SELECT seq, transaction_id, type FROM events ORDER BY seq DESC LIMIT 3',
  );
  // On PostgreSQL: the horizon projections read up to, and the write transactions holding it.
  const horizon =
    transactions.dialect === 'postgres'
      ? await transactions.query(
          `SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin,
                  (SELECT json_agg(json_build_object('xid', backend_xid::text, 'state', state,
                     'since', xact_start, 'query', left(query, 100)))
                   FROM pg_stat_activity WHERE backend_xid IS NOT NULL) AS writers`,
        )
      : [];
  return `missing: ${missing.join(', ')}; checkpoints: ${JSON.stringify(checkpoints)}; last events: ${JSON.stringify(logEnd)}; horizon: ${JSON.stringify(horizon)}`;
}

const probeKeys = new WeakMap<TestApp, Promise<string>>();

/** A read key on a plan with every feature, for the fixture's own look-ups. */
function probeKey(api: TestApp): Promise<string> {
  let key = probeKeys.get(api);
  if (!key) {
    key = api.createKey(['read'], 'enterprise');
    probeKeys.set(api, key);
  }
  return key;
}

async function isVisible(api: TestApp, key: string, record: IngestRecord): Promise<boolean> {
  const client = api.client(key);
  switch (record.type) {
    case 'company': {
      const { data } = await client.GET('/v1/api/companies/{slug}', {
        params: { path: { slug: record.slug } },
      });
      return data?.name === record.name;
    }
    case 'page': {
      const { data } = await client.GET('/v1/api/companies/{slug}', {
        params: { path: { slug: record.company_slug }, query: { include: 'pages' } },
      });
      return (data?.pages ?? []).some((page) => page.page_slug === record.page_slug);
    }
    case 'scrape': {
      const slug = compositePageSlug(record.company_slug, record.page_slug);
      const { data } = await client.GET('/v1/api/files/{slug}/version/{version}', {
        params: { path: { slug, version: record.version } },
      });
      return (data?.files ?? []).some(
        (file) => file.scraper === record.scraper && file.page_url === record.page_url,
      );
    }
    case 'pricing': {
      const slug = compositePageSlug(record.company_slug, record.page_slug);
      const { data } = await client.GET('/v1/api/pricing/{slug}', {
        params: { path: { slug }, query: { version: record.version } },
      });
      return data !== undefined;
    }
    case 'exchange_rate': {
      // No route serves the rates themselves: their reader does, to the routes that convert.
      const rates = await api.app.get(ExchangeRateReader).ratesFor(record.quote, [record.base]);
      return rates.some((rate) => rate.date === record.date && rate.base === record.base);
    }
  }
}

/**
 * Rebuilds the read models from the log, then reads until the answers are back (a catch-up
 * may stop short on PostgreSQL, as above) and returns the last reading for the caller to
 * compare: equal to `before` unless the rebuild lost or changed something.
 */
export async function rebuildAndRead<T>(
  api: TestApp,
  read: () => Promise<T>,
  before: T,
  timeoutMs = 15_000,
): Promise<T> {
  await api.app.get(ProjectionRunner).rebuild();
  const deadline = Date.now() + timeoutMs;
  let after = await read();
  while (!isDeepStrictEqual(after, before) && Date.now() < deadline) {
    await new Promise((next) => setTimeout(next, 50));
    after = await read();
  }
  return after;
}

export interface JsonResponse<T> {
  status: number;
  headers: Headers;
  /** Undefined when the response has no body (a 304). */
  body: T;
  text: string;
}

/** GETs `path` (after `/v1`) with the key as a bearer token, or with the headers given. */
export async function getJson<T = Record<string, unknown>>(
  api: TestApp,
  path: string,
  key: string | null,
  headers: Record<string, string> = {},
): Promise<JsonResponse<T>> {
  const response = await api.request(path, {
    headers: { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...headers },
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text === '' ? undefined : JSON.parse(text)) as T,
    text,
  };
}

/** `{error, message, details?}`: companies, pages and every other non-files, non-pricing route. */
export interface GeneralErrorBody {
  error: string;
  message: string;
  details?: Record<string, unknown>;
}

/**
 * The `error` of a typed call whose status the test has checked (a 4xx other than 429), as the
 * general shape: openapi-fetch types `error` as any error answer of the route (a 429's too),
 * and the response check has already held the body to the schema of its status.
 */
export function generalError(
  error: { error: string } | undefined,
): components['schemas']['GeneralError'] {
  if (error === undefined || 'retry_after' in error) {
    throw new Error(`not an error in the general shape: ${JSON.stringify(error)}`);
  }
  return error as components['schemas']['GeneralError'];
}

/** `{error, code, details?}`: files and pricing routes. */
export interface CodedErrorBody {
  error: string;
  code: string;
  details?: Record<string, unknown>;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
export const CACHE_CONTROL = /^private, max-age=\d+$/;

/** The first day (YYYYMMDD) and the name (YYYYQ#) of the quarter that holds today (UTC). */
export function currentQuarter(now = new Date()): { start: string; name: string } {
  const year = now.getUTCFullYear();
  const quarter = Math.floor(now.getUTCMonth() / 3) + 1;
  const firstMonth = String((quarter - 1) * 3 + 1).padStart(2, '0');
  return { start: `${year}${firstMonth}01`, name: `${year}Q${quarter}` };
}
