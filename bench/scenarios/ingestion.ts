/**
 * Scenario 3: ingestion end to end on PostgreSQL. Records go in as a pipeline sends them,
 * through `POST /v1/ingest/records` in batches of 1,000 with several batches in flight,
 * companies first, then pages, scrapes and extractions; the clock stops once every batch says
 * done and the read models hold every record. Against I0 (BullMQ draining the same records
 * into one table with multi-row INSERTs), measured in the same run on the same records.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { IngestRecord, RecordType } from '#app/domain';
import { runI0 } from '../baselines/i0.js';
import { cpuMeter } from '../support/cpu.js';
import { benchEnvironment, type BenchEnvironment } from '../support/environment.js';
import { BATCH_RECORDS, postBatch } from '../support/ingest.js';
import { againstBaseline, type BenchContext, peakRss, type Scenario } from '../support/scenario.js';
import { startService, type ServiceProcess } from '../support/service.js';
import { syntheticRecords, type SyntheticLogSpec } from '../support/synthetic-log.js';

const MIN_RATIO = 0.5;
const BATCHES_IN_FLIGHT = 4;
const POLL_MS = 100;
/** Polls of the read models between two questions about a batch's status. */
const BATCH_CHECK_EVERY = 20;
const TIMEOUT_MS = 30 * 60_000;

/** Scrapes dominate, as they do in production: four scrapers a version, one extraction. */
function specFor(quick: boolean): SyntheticLogSpec {
  return {
    companies: quick ? 20 : 100,
    pagesPerCompany: 2,
    versionsPerPage: quick ? 25 : 50,
    scrapersPerVersion: 4,
    pricingPerVersion: true,
  };
}

/** Read-model table of each record type: a record is in once its row is. */
const READ_MODELS: Record<RecordType, string> = {
  company: 'companies',
  page: 'pricing_pages',
  scrape: 'scrape_files',
  pricing: 'pricing_snapshots',
  exchange_rate: 'exchange_rates',
};

export const ingestionScenario: Scenario = {
  id: 'ingestion',
  title: 'Ingestion end to end (API, queue, worker, log, read models) vs I0',
  async run(context) {
    const records = [...syntheticRecords(specFor(context.quick))];
    const environment = await benchEnvironment(context, 'ingestion');
    const processes: ServiceProcess[] = [];
    try {
      context.log(`ingestion: I0 with ${records.length} records`);
      const i0Cpu = cpuMeter();
      const i0 = await runI0(environment, records, context.log);
      const i0CpuMsPerRecord = i0Cpu.perUnit(records.length);
      context.log(`ingestion: I0 ${Math.round(i0.recordsPerSecond)} records/s`);

      const worker = await startService('worker', environment.env);
      processes.push(worker);
      const api = await startService('api', environment.env);
      processes.push(api);
      const key = await environment.createKey('read,ingest');
      context.log(`ingestion: the service with ${records.length} records`);
      const serviceCpu = cpuMeter({ api: api.child.pid, worker: worker.child.pid });
      const service = await ingestThroughApi(context, environment, api.origin, key, records);
      const serviceCpuMsPerRecord = serviceCpu.perUnit(records.length);
      context.log(`ingestion: service ${Math.round(service.recordsPerSecond)} records/s`);

      return [
        againstBaseline(
          {
            scenario: 'ingestion · records end to end',
            metric: 'records/s',
            service: service.recordsPerSecond,
            details: {
              service,
              I0: i0,
              // What a record cost: the machine (every process, PostgreSQL and Redis included)
              // and, for the service, its API and worker processes.
              cpuMsPerRecord: { service: serviceCpuMsPerRecord, I0: i0CpuMsPerRecord },
              workerMetrics: await workerMetrics(worker),
            },
          },
          'I0',
          i0.recordsPerSecond,
          MIN_RATIO,
        ),
        ...[api, worker].map((child) =>
          peakRss(`ingestion · ${child.name} process`, child.peakRssMb(), {
            note: `VmHWM after ingesting ${records.length} records`,
          }),
        ),
      ];
    } finally {
      for (const child of processes.reverse()) await child.stop();
      await environment.cleanup();
    }
  },
};

interface IngestionResult {
  records: number;
  seconds: number;
  recordsPerSecond: number;
  batches: number;
  /** Seconds from the first POST until each phase's records were all in the read models. */
  phases: Record<string, number>;
}

/**
 * Sends one record type after another (a company before its pages: a page whose company is
 * not in yet waits out the worker's backoff), several batches at a time; each phase ends when
 * the read models hold its records, except that extractions follow scrapes at once, as a
 * pipeline sends them. The clock stops when the read models hold every record and every
 * batch says done.
 *
 * Progress is read from the read models' row counts; batch statuses are asked for rarely,
 * one batch at a time, because each answer reads all of a batch's jobs from Redis: asking
 * every 100 ms would take CPU from the worker on this two-core machine.
 */
async function ingestThroughApi(
  context: BenchContext,
  environment: BenchEnvironment,
  origin: string,
  key: string,
  records: IngestRecord[],
): Promise<IngestionResult> {
  const headers = { authorization: `Bearer ${key}` };
  const batches = new BatchWatch(origin, headers);
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  const phases: Record<string, number> = {};
  const expected = new Map<string, number>();
  for (const types of [['company'], ['page'], ['scrape', 'pricing']] as RecordType[][]) {
    const ofTypes = types.flatMap((type) => records.filter((record) => record.type === type));
    for (const record of ofTypes) {
      const table = READ_MODELS[record.type];
      expected.set(table, (expected.get(table) ?? 0) + 1);
    }
    batches.add(await postBatches(origin, headers, ofTypes));
    await waitForReadModels(environment, expected, batches);
    phases[types.join('+')] = elapsed();
    context.log(
      `ingestion: ${types.join(' and ')} in the read models at ${elapsed().toFixed(1)} s`,
    );
  }
  await batches.allDone();
  const seconds = elapsed();
  return {
    records: records.length,
    seconds,
    recordsPerSecond: records.length / seconds,
    batches: batches.count,
    phases,
  };
}

/** POSTs the records in batches of 1,000, a few at once; returns the batch ids in order. */
async function postBatches(
  origin: string,
  headers: Record<string, string>,
  records: IngestRecord[],
): Promise<string[]> {
  const ids: string[] = [];
  let next = 0;
  const sender = async () => {
    while (next < records.length) {
      const index = next / BATCH_RECORDS;
      const batch = records.slice(next, next + BATCH_RECORDS);
      next += BATCH_RECORDS;
      ids[index] = await postBatch(origin, headers, batch);
    }
  };
  await Promise.all(Array.from({ length: BATCHES_IN_FLIGHT }, sender));
  return ids;
}

/** The batches sent so far, checked oldest first: done, or failed (which ends the run). */
class BatchWatch {
  private readonly pending: string[] = [];
  count = 0;

  constructor(
    private readonly origin: string,
    private readonly headers: Record<string, string>,
  ) {}

  add(ids: string[]): void {
    this.pending.push(...ids);
    this.count += ids.length;
  }

  /** Asks about the oldest batch not known done; true once every batch is done. */
  async check(): Promise<boolean> {
    while (this.pending.length > 0) {
      const batch = this.pending[0] as string;
      const response = await fetch(`${this.origin}/v1/ingest/batches/${batch}`, {
        headers: this.headers,
      });
      const status = (await response.json()) as {
        complete: boolean;
        counts: Record<string, number>;
      };
      if (status.counts.failed || status.counts.unknown) {
        throw new Error(`batch ${batch} has failures: ${JSON.stringify(status)}`);
      }
      if (!status.complete) return false;
      this.pending.shift();
    }
    return true;
  }

  async allDone(): Promise<void> {
    const deadline = Date.now() + TIMEOUT_MS;
    while (!(await this.check())) {
      if (Date.now() > deadline) throw new Error('the batches are not done in time');
      await sleep(POLL_MS);
    }
  }
}

/** Until every read model holds `expected` rows, watching the batches for failures meanwhile. */
async function waitForReadModels(
  environment: BenchEnvironment,
  expected: Map<string, number>,
  batches: BatchWatch,
): Promise<void> {
  const deadline = Date.now() + TIMEOUT_MS;
  for (let round = 1; ; round++) {
    let complete = true;
    for (const [table, count] of expected) {
      const { rows } = await environment.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${table}`,
      );
      const found = rows[0]?.n ?? 0;
      if (found > count) throw new Error(`${table} holds ${found} rows for ${count} records`);
      if (found < count) {
        complete = false;
        if (Date.now() > deadline) throw new Error(`${table} holds ${found} of ${count} rows`);
        break;
      }
    }
    if (complete) return;
    if (round % BATCH_CHECK_EVERY === 0) await batches.check();
    await sleep(POLL_MS);
  }
}

/** The worker's job and event counters, for where the time went. */
async function workerMetrics(worker: ServiceProcess): Promise<string[]> {
  const text = await fetch(`${worker.origin}/metrics`).then(
    (response) => response.text(),
    () => '',
  );
  return text
    .split('\n')
    .filter((line) => /^(ingest_records_total|events_appended_total)\{/.test(line));
}
