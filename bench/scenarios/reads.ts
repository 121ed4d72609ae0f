/**
 * Scenario 1: version-addressed reads (files of one scrape version, the pricing of one
 * version) through everything a client goes through: key check, counting on Redis, rate-limit
 * headers, ETag, the read models on PostgreSQL. Against R0, which only counts and answers as many
 * bytes: at least 0.6 of its requests a second, at most twice its CPU per request and its p99
 * (the goal beyond: 0.8 of its requests at 1.5 times its CPU). And a revalidation that finds the
 * answer unchanged (304) costs less CPU than the 200 it stands for.
 *
 * The catalogue is small and goes in through the real ingestion path (the API's batch
 * endpoint, then the worker), so the read models are exactly what ingestion makes.
 */
import { startR0 } from '../baselines/r0.js';
import { benchEnvironment, startWorkerAndApi } from '../support/environment.js';
import { ingest, untilProjected } from '../support/ingest.js';
import { compareWithBaseline, measureThroughput, type LoadTarget } from '../support/load.js';
import {
  atMostBaseline,
  type BenchContext,
  type Measurement,
  peakRss,
  type Scenario,
} from '../support/scenario.js';
import type { ServiceProcess } from '../support/service.js';
import { syntheticRecords, type SyntheticLogSpec } from '../support/synthetic-log.js';

const MIN_RATIO = 0.6;
/** CPU per request and open-loop p99, each at most this multiple of R0's. */
const MAX_RATIO_TO_R0 = 2;

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
      const { worker, api, headers } = await startWorkerAndApi(environment, processes);

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
            maximumCpuRatio: MAX_RATIO_TO_R0,
            maximumP99Ratio: MAX_RATIO_TO_R0,
          })),
        );
      }
      const files = endpoints[0]!;
      const filesCpu = rows.find(
        (row) => row.scenario === files.scenario && row.metric === 'CPU ms/request',
      );
      if (filesCpu) {
        rows.push(
          await revalidations(context, api.origin, api.child.pid, headers, files, filesCpu),
        );
      }
      for (const child of [api, worker]) {
        rows.push(
          peakRss(`reads · ${child.name} process`, child.peakRssMb(), {
            note:
              child === api
                ? 'VmHWM after serving both endpoints'
                : 'VmHWM after ingesting the catalogue and idling through the reads',
          }),
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
 * The files by version asked again with the ETag each was given (`If-None-Match`), so each is
 * answered 304: its CPU per request against the 200's of the same run.
 */
async function revalidations(
  context: BenchContext,
  origin: string,
  pid: number | undefined,
  headers: Record<string, string>,
  files: { scenario: string; paths: string[] },
  answered: Measurement,
): Promise<Measurement> {
  const variants = [];
  for (const path of files.paths) {
    const response = await fetch(`${origin}${path}`, { headers });
    await response.arrayBuffer();
    variants.push({ path, headers: { 'if-none-match': response.headers.get('etag') ?? '' } });
  }
  context.log(`${files.scenario}: service throughput of revalidations (304)`);
  const target: LoadTarget = { origin, pid, headers, variants, expectStatus: 304 };
  const throughput = await measureThroughput(target, context.quick, context.redisUrl);
  return atMostBaseline(
    {
      scenario: `${files.scenario}, unchanged (304)`,
      metric: 'CPU ms/request',
      service: throughput.cpuMsPerRequest ?? Number.NaN,
      details: { note: 'If-None-Match with the ETag each was given', service: throughput },
    },
    '200',
    answered.service,
    1,
  );
}
