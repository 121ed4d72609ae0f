/**
 * Scenario 1: version-addressed reads (files of one scrape version, the pricing of one
 * version) through everything a client goes through: key check, counting on Redis, rate-limit
 * headers, the read models on PostgreSQL. Against R0, which only counts and answers as many
 * bytes.
 *
 * The catalogue is small and goes in through the real ingestion path (the API's batch
 * endpoint, then the worker), so the read models are exactly what ingestion makes.
 */
import type { IngestRecord } from '#app/domain';
import { startR0 } from '../baselines/r0.js';
import { benchEnvironment } from '../support/environment.js';
import { compareWithBaseline, type LoadTarget } from '../support/load.js';
import { underCeiling, type Measurement, type Scenario } from '../support/scenario.js';
import { startService, type ServiceProcess } from '../support/service.js';
import { syntheticRecords, type SyntheticLogSpec } from '../support/synthetic-log.js';

const MIN_RATIO = 0.8;
const P99_CEILING_MS = 10;
const RSS_CEILING_MB = 250;
/** The API's largest batch. */
const BATCH_RECORDS = 1_000;

export const readsScenario: Scenario = {
  id: 'reads',
  title: 'Version-addressed reads (files, pricing) vs R0',
  async run(context) {
    const spec: SyntheticLogSpec = {
      companies: context.quick ? 10 : 40,
      pagesPerCompany: 1,
      versionsPerPage: context.quick ? 6 : 12,
      scrapersPerVersion: 4,
      pricingPerVersion: true,
    };
    const environment = await benchEnvironment(context, 'reads');
    const processes: ServiceProcess[] = [];
    try {
      const keyCreated = environment.createKey('read,ingest');
      // Its failure is thrown where it is awaited; until then it must not count as unhandled.
      keyCreated.catch(() => undefined);
      // Side by side, and every one that started is stopped below even if the other failed.
      const started = await Promise.allSettled([
        startService('worker', environment.env),
        startService('api', environment.env),
      ]);
      for (const result of started) if (result.status === 'fulfilled') processes.push(result.value);
      const [worker, api] = started.map((result) => {
        if (result.status === 'rejected') throw result.reason;
        return result.value;
      }) as [ServiceProcess, ServiceProcess];
      const headers = { authorization: `Bearer ${await keyCreated}` };

      const records = [...syntheticRecords(spec)];
      context.log(`reads: ingesting ${records.length} records through the API`);
      await ingest(api.origin, headers, records);
      await untilProjected(api.origin, headers, records);

      // Every (company, version) with a scrape has files and, here, an extraction.
      const addressed = records.flatMap((record) =>
        record.type === 'scrape' ? [{ slug: record.company_slug, version: record.version }] : [],
      );
      const versions = [
        ...new Map(addressed.map((at) => [`${at.slug}@${at.version}`, at])).values(),
      ];
      const endpoints = [
        {
          scenario: 'reads · files by version',
          paths: versions.map(({ slug, version }) => `/v1/api/files/${slug}/version/${version}`),
        },
        {
          scenario: 'reads · pricing by version',
          paths: versions.map(({ slug, version }) => `/v1/api/pricing/${slug}?version=${version}`),
        },
      ];
      const rows: Measurement[] = [];
      for (const { scenario, paths } of endpoints) {
        const service: LoadTarget = {
          origin: api.origin,
          pid: api.child.pid,
          headers,
          variants: paths.map((path) => ({ path })),
        };
        rows.push(
          ...(await compareWithBaseline({
            context,
            scenario,
            service,
            baselineName: 'R0',
            startBaseline: (bodyBytes) =>
              startR0({
                bodyBytes,
                redisUrl: context.redisUrl,
                keyNamespace: environment.env.QUEUE_PREFIX!.replace(/[{}]/g, ''),
              }),
            minimumRatio: MIN_RATIO,
            p99CeilingMs: P99_CEILING_MS,
          })),
        );
      }
      for (const child of [api, worker]) {
        rows.push(
          underCeiling(
            {
              scenario: `reads · ${child.name} process`,
              metric: 'peak RSS MB',
              service: child.peakRssMb(),
              details: {
                note:
                  child === api
                    ? 'VmHWM after serving both endpoints'
                    : 'VmHWM after ingesting the catalogue and idling through the reads',
              },
            },
            RSS_CEILING_MB,
            'MB',
          ),
        );
      }
      return rows;
    } finally {
      for (const child of processes.reverse()) await child.stop();
      await environment.cleanup();
    }
  },
};

/**
 * Sends the records as a pipeline would, one type after another (a company before its pages,
 * a scrape before its extraction), and waits until the worker has processed every batch.
 */
async function ingest(
  origin: string,
  headers: Record<string, string>,
  records: IngestRecord[],
): Promise<void> {
  for (const type of ['company', 'page', 'scrape', 'pricing'] as const) {
    const ofType = records.filter((record) => record.type === type);
    const batches: string[] = [];
    for (let start = 0; start < ofType.length; start += BATCH_RECORDS) {
      const response = await fetch(`${origin}/v1/ingest/records`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(ofType.slice(start, start + BATCH_RECORDS)),
      });
      const body = await response.text();
      if (response.status !== 202) throw new Error(`ingest answered ${response.status}: ${body}`);
      batches.push((JSON.parse(body) as { batch_id: string }).batch_id);
    }
    for (const batch of batches) await waitForBatch(origin, headers, batch);
  }
}

/**
 * Until the read models hold every extraction. Scrapes went in before extractions, and the
 * projectors move through the log together, so the files are in too. Asked of the pricing
 * route, because a 404 is never cached: a files answer asked for too early would be kept,
 * empty, for seconds.
 */
async function untilProjected(
  origin: string,
  headers: Record<string, string>,
  records: IngestRecord[],
): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (const record of records) {
    if (record.type !== 'pricing') continue;
    const path = `/v1/api/pricing/${record.company_slug}?version=${record.version}`;
    for (;;) {
      const response = await fetch(`${origin}${path}`, { headers });
      await response.arrayBuffer();
      if (response.status === 200) break;
      if (Date.now() > deadline) throw new Error(`${path} still answers ${response.status}`);
      await new Promise((next) => setTimeout(next, 100));
    }
  }
}

async function waitForBatch(
  origin: string,
  headers: Record<string, string>,
  batch: string,
): Promise<void> {
  const deadline = Date.now() + 5 * 60_000;
  for (;;) {
    const response = await fetch(`${origin}/v1/ingest/batches/${batch}`, { headers });
    const status = (await response.json()) as {
      complete: boolean;
      counts: Record<string, number>;
      failures: unknown[];
    };
    if (status.complete) {
      if (status.counts.failed || status.counts.unknown) {
        throw new Error(`batch ${batch} ended with failures: ${JSON.stringify(status)}`);
      }
      return;
    }
    if (Date.now() > deadline) throw new Error(`batch ${batch} is not done after 5 minutes`);
    await new Promise((next) => setTimeout(next, 200));
  }
}
