/**
 * Scenario 8: two limits that protect the service, measured on real processes.
 *
 * - Memory: 30,000 reads of a kept answer, each with a query string of its own of 3.8 KB that
 *   no route reads (a cache-buster), must grow the API process's resident memory by less than
 *   48 MB: a parameter a route does not read is no part of what the read lane keeps.
 * - Batch status: with 50,000 jobs waiting in the ingest queue (the worker stopped), the status
 *   of a 1,000-record batch must answer in under 300 ms: it costs Redis a few commands, whatever
 *   the backlog.
 */
import { randomBytes } from 'node:crypto';
import { loadConfig } from '#app/config';
import { IngestQueue } from '#app/contracts';
import type { IngestRecord } from '#app/domain';
import {
  benchEnvironment,
  startWorkerAndApi,
  type BenchEnvironment,
} from '../support/environment.js';
import { BATCH_RECORDS, ingest, postBatch, untilProjected } from '../support/ingest.js';
import { underCeiling, type Scenario } from '../support/scenario.js';
import type { ServiceProcess } from '../support/service.js';
import { syntheticRecords } from '../support/synthetic-log.js';

const CACHE_BUSTED_READS = 30_000;
const CACHE_BUSTER_BYTES = 3_800;
const MAX_GROWTH_MB = 48;
const BACKLOG = 50_000;
const MAX_STATUS_MS = 300;
/** Status requests timed; the row is the slowest. */
const STATUS_SAMPLES = 20;
/** Reads in flight at once. */
const IN_FLIGHT = 50;

export const limitsScenario: Scenario = {
  id: 'limits',
  title: `API memory over ${CACHE_BUSTED_READS} cache-busted reads; a batch status behind ${BACKLOG} jobs`,
  async run(context) {
    const environment = await benchEnvironment(context, 'limits');
    const processes: ServiceProcess[] = [];
    try {
      const { worker, api, headers } = await startWorkerAndApi(environment, processes);
      const catalogue = [
        ...syntheticRecords({
          companies: 2,
          pagesPerCompany: 1,
          versionsPerPage: 2,
          scrapersPerVersion: 2,
          pricingPerVersion: true,
        }),
      ];
      await ingest(api.origin, headers, catalogue);
      await untilProjected(api.origin, headers, catalogue);
      const scrape = catalogue.find((record) => record.type === 'scrape')!;
      const path = `/v1/api/files/${scrape.company_slug}/version/${scrape.version}`;

      const reads = context.quick ? CACHE_BUSTED_READS / 10 : CACHE_BUSTED_READS;
      context.log(`limits: ${reads} reads of ${path}, each with its own query string`);
      await cacheBustedReads(api.origin, headers, path, 1_000);
      const before = api.rssMb();
      const statuses = await cacheBustedReads(api.origin, headers, path, reads);
      const after = api.rssMb();

      await worker.stop();
      const backlog = context.quick ? BACKLOG / 10 : BACKLOG;
      context.log(`limits: ${backlog} waiting jobs, then a batch of ${BATCH_RECORDS} behind them`);
      await queueBacklog(environment, backlog);
      const batchId = await postBatch(api.origin, headers, batchRecords());
      const timings: number[] = [];
      for (let i = 0; i < STATUS_SAMPLES; i++) {
        const began = performance.now();
        const response = await fetch(`${api.origin}/v1/ingest/batches/${batchId}`, { headers });
        const status = (await response.json()) as { counts: { waiting: number } };
        timings.push(performance.now() - began);
        if (status.counts.waiting !== BATCH_RECORDS) {
          throw new Error(`the batch's status says ${JSON.stringify(status)}`);
        }
      }
      timings.sort((a, b) => a - b);
      return [
        underCeiling(
          {
            scenario: `limits · api RSS growth, ${reads} cache-busted reads`,
            metric: 'MB',
            service: after - before,
            details: {
              beforeMb: before,
              afterMb: after,
              statuses,
              queryStringBytes: CACHE_BUSTER_BYTES,
            },
          },
          MAX_GROWTH_MB,
          'MB',
        ),
        underCeiling(
          {
            scenario: `limits · batch status behind ${backlog} jobs`,
            metric: 'max ms',
            service: timings.at(-1)!,
            details: { medianMs: timings[Math.floor(timings.length / 2)], timingsMs: timings },
          },
          MAX_STATUS_MS,
          'ms',
        ),
      ];
    } finally {
      for (const child of processes.reverse()) await child.stop();
      await environment.cleanup();
    }
  },
};

/** `count` reads of `path`, IN_FLIGHT at a time, each with a query string no route reads. */
async function cacheBustedReads(
  origin: string,
  headers: Record<string, string>,
  path: string,
  count: number,
): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  let next = 0;
  const reader = async () => {
    while (next < count) {
      next += 1;
      const buster = randomBytes(CACHE_BUSTER_BYTES / 2).toString('hex');
      const response = await fetch(`${origin}${path}?_=${buster}`, { headers });
      await response.arrayBuffer();
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, reader));
  return statuses;
}

/** `count` jobs added to the ingest queue as a pipeline adds them, which no worker takes. */
async function queueBacklog(environment: BenchEnvironment, count: number): Promise<void> {
  const ingestQueue = new IngestQueue(loadConfig(environment.env));
  try {
    for (let start = 0; start < count; start += 1_000) {
      await ingestQueue.queue.addBulk(
        Array.from({ length: Math.min(1_000, count - start) }, (_, i) => ({
          name: 'company',
          data: {
            record: backlogCompany(`backlog-${start + i}.io`),
            batchId: null,
            requestId: null,
          },
        })),
      );
    }
  } finally {
    await ingestQueue.onApplicationShutdown();
  }
}

function backlogCompany(slug: string): IngestRecord {
  return {
    type: 'company',
    slug,
    name: slug,
    category: 'Finance',
    employees: '1-10',
    url: `https://${slug}`,
  };
}

function batchRecords(): IngestRecord[] {
  return Array.from({ length: BATCH_RECORDS }, (_, i) => backlogCompany(`status-${i}.io`));
}
