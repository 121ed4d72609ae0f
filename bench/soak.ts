/**
 * Soak: `npm run soak -- --seconds 300` (builds first). Starts the API and a worker as
 * production runs them (or several of each, `--apis`/`--workers`, on a Redis Cluster and a
 * PostgreSQL replica it starts itself with `--redis-cluster` and `--replica`), seeds a catalogue
 * through the ingestion path, then for the set time reads every catalogue endpoint with a read
 * key (spread over the APIs in turn) while new scrapes and extractions go in with an ingest key,
 * both at a steady rate whatever the answers do, and samples each process's memory. With
 * `--restart`, a worker is killed a third of the way in and an API two thirds of the way in, each
 * replaced by a new process. At the end it waits until every accepted record is in the event log,
 * asks the API for each of them, and compares the credits charged with the 2xx answers.
 *
 * Prints throughput, read latency, errors and each process's memory (start after the warm-up,
 * end, peak, growth) on stdout, progress on stderr, and writes every figure and sample to
 * bench/results/soak-<time>.json. Exits 1 when a service process exits unasked, a request fails
 * or answers other than 2xx, a record never reaches the log or is not served, the credits charged
 * differ from the charged 2xx answers, or the soak itself crashes; a memory
 * growth past --max-growth-mb is flagged but fails nothing (a short run's growth is noise).
 */
import 'reflect-metadata';
import { setTimeout as sleep } from 'node:timers/promises';
import { Command, InvalidArgumentError } from 'commander';
import { DataSource } from 'typeorm';
import type { DatabaseConfig } from '#app/config';
import {
  compositePageSlug,
  idempotencyKey,
  type IngestRecord,
  type ScrapeRecord,
} from '#app/domain';
import { buildDataSourceOptions } from '#app/persistence';
import { parsePrometheusText } from '../test/support/prometheus-text.js';
import { serviceEnvironment, type ServiceEnvironment } from './support/environment.js';
import { startInfrastructure } from './support/infrastructure.js';
import { ingest, untilProjected } from './support/ingest.js';
import { openLoop, percentile, type Outcome } from './support/load.js';
import {
  sampleMemory,
  summariseMemory,
  type MemoryFigure,
  type MemorySample,
} from './support/memory.js';
import { figure, machineInfo, printColumns, writeResults } from './support/report.js';
import { Fleet, type Restart } from './support/fleet.js';
import type { ServiceProcess } from './support/service.js';
import { laterRecords, syntheticRecords, type SyntheticLogSpec } from './support/synthetic-log.js';

/** 20 companies, 40 pages, 6 versions of each with two scrapes and an extraction: 780 records. */
const SEED: SyntheticLogSpec = {
  companies: 20,
  pagesPerCompany: 2,
  versionsPerPage: 6,
  scrapersPerVersion: 2,
  pricingPerVersion: true,
};
const BATCHES_PER_SECOND = 2;
const REQUEST_TIMEOUT_MS = 10_000;
/** How long the worker gets, after the load, to put the last accepted records in the log. */
const DRAIN_DEADLINE_MS = 60_000;

const positive = (value: string) => {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) {
    throw new InvalidArgumentError('must be a number above 0');
  }
  return number;
};

const count = (value: string) => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > 8) {
    throw new InvalidArgumentError('must be a whole number from 1 to 8');
  }
  return number;
};

const program = new Command('soak')
  .description('Mixed read and ingest load on a real API and worker, with their memory over time')
  .option('--seconds <n>', 'how long the load runs', positive, 300)
  .option(
    '--database <url>',
    'a postgres:// server (the run gets a schema of its own) or sqlite (a file in a temporary directory)',
    process.env.BENCH_DATABASE_URL ?? 'sqlite',
  )
  .option('--read-rate <n>', 'metered reads a second', positive, 200)
  .option(
    '--ingest-rate <n>',
    `new records a second, in ${BATCHES_PER_SECOND} batches`,
    positive,
    100,
  )
  .option(
    '--max-growth-mb <n>',
    "a process's memory growth flagged as a possible leak",
    positive,
    16,
  )
  .option('--apis <n>', 'API processes, each taking its turn of the requests', count, 1)
  .option('--workers <n>', 'worker processes', count, 1)
  .option(
    '--restart',
    'kill a worker (SIGKILL) a third of the way in and an API two thirds of the way in, and replace each',
    false,
  )
  .option(
    '--redis-cluster',
    'run on a Redis Cluster of three masters and three replicas started for the run',
    false,
  )
  .option(
    '--replica',
    'run on a PostgreSQL primary and a streaming replica started for the run (instead of --database)',
    false,
  )
  .parse();
const options = program.opts<{
  seconds: number;
  database: string;
  readRate: number;
  ingestRate: number;
  maxGrowthMb: number;
  apis: number;
  workers: number;
  restart: boolean;
  redisCluster: boolean;
  replica: boolean;
}>();
if (options.restart && options.apis < 2) {
  // With one API, the requests sent while it is replaced would have nowhere to go.
  program.error('--restart needs --apis 2 or more');
}

const began = performance.now();
const log = (message: string) =>
  console.error(`[${((performance.now() - began) / 1000).toFixed(1).padStart(6)} s] ${message}`);
const context = {
  databaseUrl: options.database,
  redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
};

/** Answers and failures of one kind of request. */
class Tally {
  private requests = 0;
  private ok = 0;
  private readonly latencies: number[] = [];
  private readonly statuses: Record<string, number> = {};
  /** Failures by kind ('HTTP 503', 'timeout', 'network'), with the first answer or message. */
  private readonly errors: Record<string, { count: number; first: string }> = {};

  record(outcome: Outcome): void {
    this.requests += 1;
    if ('error' in outcome) return this.fail(outcome.error, outcome.message);
    this.latencies.push(outcome.ms);
    this.statuses[outcome.status] = (this.statuses[outcome.status] ?? 0) + 1;
    if (outcome.status >= 200 && outcome.status < 300) this.ok += 1;
    else this.fail(`HTTP ${outcome.status}`, outcome.errorBody ?? '');
  }

  private fail(kind: string, message: string): void {
    (this.errors[kind] ??= { count: 0, first: message.replace(/\s+/g, ' ') }).count += 1;
  }

  /** Latencies of every answer, error answers included, timed from when the request was due. */
  summary(seconds: number) {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    return {
      requests: this.requests,
      ok: this.ok,
      okPerSecond: this.ok / seconds,
      p50Ms: percentile(sorted, 0.5),
      p99Ms: percentile(sorted, 0.99),
      maxMs: sorted.at(-1) ?? 0,
      failed: this.requests - this.ok,
      statuses: this.statuses,
      errors: this.errors,
    };
  }
}

type LoadSummary = ReturnType<Tally['summary']>;

const unique = (paths: string[]) => [...new Set(paths)];

/** Requests of every catalogue endpoint over the seeded catalogue, in turn. */
function readPlan(records: IngestRecord[]) {
  const companies = records.flatMap((record) => (record.type === 'company' ? [record] : []));
  const pages = records.flatMap((record) =>
    record.type === 'page' ? [compositePageSlug(record.company_slug, record.page_slug)] : [],
  );
  const scrapes = records.flatMap((record) => (record.type === 'scrape' ? [record] : []));
  const extractions = records.flatMap((record) => (record.type === 'pricing' ? [record] : []));
  const quarter = (version: string) =>
    `${version.slice(0, 4)}Q${Math.ceil(Number(version.slice(4, 6)) / 3)}`;
  const api = '/v1/api';
  const endpoints: Record<string, string[]> = {
    'companies list': ['name', '-employees', 'category', '-updated_at'].flatMap((sort) =>
      [1, 2].map((page) => `${api}/companies?sort=${sort}&limit=10&page=${page}`),
    ),
    'companies search': companies.map(
      ({ slug, category }) =>
        `${api}/companies?search=${slug.slice(0, 4)}&category=${encodeURIComponent(category)}`,
    ),
    'company by slug': companies.map(({ slug }) => `${api}/companies/${slug}?include=pages`),
    page: pages.map((slug) => `${api}/pages/${slug}`),
    'files by quarter': unique(
      scrapes.map(
        ({ company_slug, version }) => `${api}/files/${company_slug}/quarter/${quarter(version)}`,
      ),
    ),
    'files by version': unique(
      scrapes.map(({ company_slug, version }) => `${api}/files/${company_slug}/version/${version}`),
    ),
    // The newest extraction, which the ingest load keeps changing.
    'pricing latest': pages.map((slug) => `${api}/pricing/${slug}`),
    'pricing by version': extractions.map(
      ({ company_slug, page_slug, version }) =>
        `${api}/pricing/${compositePageSlug(company_slug, page_slug)}?version=${version}`,
    ),
    usage: [`${api}/usage`],
  };
  const names = Object.keys(endpoints);
  return {
    names,
    /** The index-th read: endpoints in turn, each cycling through its paths. */
    at(index: number) {
      const name = names[index % names.length] as string;
      const paths = endpoints[name] as string[];
      return { name, path: paths[Math.floor(index / names.length) % paths.length] as string };
    },
  };
}

/**
 * A counter of `processes`' `/metrics` summed by one label's values (an ingest record's outcome, a
 * read's database); null when one of them does not answer. A process's counts go with it when it
 * is replaced.
 */
async function countsByLabel(
  processes: ServiceProcess[],
  metric: string,
  label: string,
): Promise<Record<string, number> | null> {
  const counts: Record<string, number> = {};
  for (const service of processes) {
    const text = await fetch(`${service.origin}/metrics`).then(
      (response) => response.text(),
      () => null,
    );
    if (text === null) return null;
    for (const sample of parsePrometheusText(text).series(metric)) {
      const value = sample.labels[label] as string;
      counts[value] = (counts[value] ?? 0) + sample.value;
    }
  }
  return counts;
}

/** The workers' ingest records so far by outcome (appended, duplicate, retrying, failed). */
const jobOutcomes = (workers: ServiceProcess[]) =>
  countsByLabel(workers, 'ingest_records_total', 'outcome');

/** Records by outcome between two readings of the worker's counters. */
function jobsBetween(
  before: Record<string, number> | null,
  after: Record<string, number> | null,
): Record<string, number> | null {
  if (!before || !after) return null;
  return Object.fromEntries(
    Object.entries(after).map(([outcome, count]) => [outcome, count - (before[outcome] ?? 0)]),
  );
}

/** The credits a key has used this month (`GET /v1/api/usage`, itself never charged). */
async function creditsUsed(api: ServiceProcess, headers: Record<string, string>): Promise<number> {
  const response = await fetch(`${api.origin}/v1/api/usage`, { headers });
  if (!response.ok) throw new Error(`GET /v1/api/usage answered ${response.status}`);
  return ((await response.json()) as { credits: { used: number } }).credits.used;
}

/**
 * A worker killed a third of the way into the load and an API two thirds of the way in, each
 * replaced (Fleet); nothing is replaced once the load has ended early.
 */
function replaceDuringLoad(
  fleet: Fleet,
  loadStart: number,
  signal: AbortSignal,
): Promise<Restart | null>[] {
  const at = async (fraction: number, replace: (since: number) => Promise<Restart>) => {
    await sleep(Math.max(0, options.seconds * fraction * 1000 - (performance.now() - loadStart)));
    if (signal.aborted) return null;
    const restart = await replace(loadStart);
    log(
      `${restart.killed} killed at ${restart.atSeconds.toFixed(1)} s; ${restart.started} answered ${restart.downSeconds.toFixed(1)} s later`,
    );
    return restart;
  };
  return [
    at(1 / 3, (since) => fleet.replaceWorker(since)),
    at(2 / 3, (since) => fleet.replaceApi(since)),
  ];
}

/**
 * The accepted records the API does not serve: each scrape must be among the files of its
 * company's version, each extraction the pricing of its page at its version. Asks once per
 * company and version, and once per extraction.
 */
async function unservedRecords(
  api: ServiceProcess,
  headers: Record<string, string>,
  records: IngestRecord[],
): Promise<IngestRecord[]> {
  const get = async (path: string) => {
    const response = await fetch(`${api.origin}/v1/api${path}`, { headers });
    return {
      status: response.status,
      body: response.ok ? await response.json() : await response.text(),
    };
  };
  const unserved: IngestRecord[] = [];
  const scrapesByVersion = new Map<string, ScrapeRecord[]>();
  for (const record of records) {
    if (record.type === 'scrape') {
      const key = `${record.company_slug}/version/${record.version}`;
      scrapesByVersion.set(key, [...(scrapesByVersion.get(key) ?? []), record]);
    } else if (record.type === 'pricing') {
      const page = compositePageSlug(record.company_slug, record.page_slug);
      const { status } = await get(`/pricing/${page}?version=${record.version}`);
      if (status !== 200) unserved.push(record);
    }
  }
  for (const [path, scrapes] of scrapesByVersion) {
    const { status, body } = await get(`/files/${path}`);
    // A file names its page by URL (its slug is the company's).
    const files =
      status === 200
        ? (body as { files: { page_url: string; scraper: string | null }[] }).files
        : [];
    const served = new Set(files.map((file) => `${file.page_url} ${file.scraper}`));
    for (const scrape of scrapes) {
      if (!served.has(`${scrape.page_url} ${scrape.scraper}`)) unserved.push(scrape);
    }
  }
  return unserved;
}

/**
 * Waits until every key is in the event log, or the deadline; returns the keys still missing.
 * Asks only about the ones not found yet, a thousand at a time.
 */
async function untilInLog(
  database: DatabaseConfig,
  keys: string[],
  deadline: number,
): Promise<string[]> {
  const dataSource = await new DataSource(buildDataSourceOptions(database)).initialize();
  try {
    let missing = keys;
    for (;;) {
      const found = new Set<string>();
      for (let start = 0; start < missing.length; start += 1_000) {
        const rows = await dataSource
          .createQueryBuilder()
          .select('events.idempotency_key', 'key')
          .from('events', 'events')
          .where('events.idempotency_key IN (:...keys)', {
            keys: missing.slice(start, start + 1_000),
          })
          .getRawMany<{ key: string }>();
        for (const { key } of rows) found.add(key);
      }
      missing = missing.filter((key) => !found.has(key));
      if (missing.length === 0 || Date.now() > deadline) return missing;
      await sleep(500);
    }
  } finally {
    await dataSource.destroy();
  }
}

/** What a record is, for the list of those missing from the log. */
function recordLabel(record: IngestRecord): string {
  if (record.type !== 'scrape' && record.type !== 'pricing') return record.type;
  const page = compositePageSlug(record.company_slug, record.page_slug);
  const scraper = record.type === 'scrape' ? ` ${record.scraper}` : '';
  return `${record.type} ${page} ${record.version}${scraper}`;
}

const seconds = (since: number) => (performance.now() - since) / 1000;

/** The end of a process's output, for a failure's message. */
function lastOutput(service: ServiceProcess): string {
  const output = service.output().slice(-2_000).trim();
  return output ? `:\n${output}` : '';
}

/**
 * The load: reads of every endpoint and batches of new records at their steady rates for
 * `--seconds` (or until a process exits), with each process's memory sampled from the end of
 * the warm-up on, and once more at the end.
 */
async function runLoad(setting: {
  fleet: Fleet;
  readHeaders: Record<string, string>;
  ingestHeaders: Record<string, string>;
  seed: IngestRecord[];
  signal: AbortSignal;
  warmUpSeconds: number;
  sampleEverySeconds: number;
}) {
  const { fleet, signal, warmUpSeconds, sampleEverySeconds } = setting;
  const reads = readPlan(setting.seed);
  const readTallies = new Map(reads.names.map((name) => [name, new Tally()]));
  const allReads = new Tally();
  const batches = new Tally();
  const later = laterRecords(SEED);
  const recordsPerBatch = Math.max(1, Math.round(options.ingestRate / BATCHES_PER_SECOND));
  const sent = new Map<number, IngestRecord[]>();
  /** Each accepted record, by its idempotency key. */
  const accepted = new Map<string, IngestRecord>();
  const samples = new Map<ServiceProcess, MemorySample[]>();
  /** The API each request in flight went to. */
  const sentTo = {
    reads: new Map<number, ServiceProcess>(),
    batches: new Map<number, ServiceProcess>(),
  };
  const jobsBefore = await jobOutcomes(fleet.liveWorkers);
  const charged = await creditsUsed(fleet.anyApi, setting.readHeaders);

  log(
    `load: ${options.readRate} reads/s and ${options.ingestRate} records/s in batches of ` +
      `${recordsPerBatch} for ${options.seconds} s; memory from ${warmUpSeconds.toFixed(1)} s ` +
      `on, every ${sampleEverySeconds.toFixed(1)} s`,
  );
  const loadStart = performance.now();
  const sample = async () => {
    const at = seconds(loadStart);
    for (const service of fleet.started) {
      const memory = await sampleMemory(service, at);
      if (!samples.has(service)) samples.set(service, []);
      if (memory) samples.get(service)!.push(memory);
    }
  };
  const restarts = options.restart ? replaceDuringLoad(fleet, loadStart, signal) : [];
  const sampling = (async () => {
    for (let next = warmUpSeconds; next < options.seconds; next += sampleEverySeconds) {
      await sleep(Math.max(0, (next - seconds(loadStart)) * 1000));
      if (signal.aborted) return;
      await sample();
    }
  })();
  /** Sends each request to the next API in turn, and counts it answered there. */
  const balanced = (sentToApi: Map<number, ServiceProcess>) => ({
    to(index: number) {
      const api = fleet.pickApi();
      sentToApi.set(index, api);
      return api.origin;
    },
    answered(index: number) {
      fleet.answered(sentToApi.get(index)!);
      sentToApi.delete(index);
    },
  });
  const readsTo = balanced(sentTo.reads);
  const batchesTo = balanced(sentTo.batches);
  await Promise.all([
    openLoop({
      origin: fleet.anyApi.origin,
      headers: setting.readHeaders,
      rate: options.readRate,
      seconds: options.seconds,
      signal,
      timeoutMs: REQUEST_TIMEOUT_MS,
      request: (index) => ({ origin: readsTo.to(index), path: reads.at(index).path }),
      onOutcome: (index, outcome) => {
        readsTo.answered(index);
        readTallies.get(reads.at(index).name)!.record(outcome);
        allReads.record(outcome);
      },
    }),
    openLoop({
      origin: fleet.anyApi.origin,
      headers: setting.ingestHeaders,
      rate: options.ingestRate / recordsPerBatch,
      seconds: options.seconds,
      signal,
      timeoutMs: REQUEST_TIMEOUT_MS,
      request: (index) => {
        const records = Array.from({ length: recordsPerBatch }, () => later.next().value!);
        sent.set(index, records);
        return {
          origin: batchesTo.to(index),
          path: '/v1/ingest/records',
          body: JSON.stringify(records),
        };
      },
      onOutcome: (index, outcome) => {
        batchesTo.answered(index);
        batches.record(outcome);
        const records = sent.get(index)!;
        sent.delete(index);
        if (!('status' in outcome) || outcome.status !== 202) return;
        for (const record of records) accepted.set(idempotencyKey(record), record);
      },
    }),
  ]);
  const loadSeconds = seconds(loadStart);
  await sampling;
  await sample();
  const replaced = (await Promise.all(restarts)).filter((restart) => restart !== null);
  const chargedDuringLoad = (await creditsUsed(fleet.anyApi, setting.readHeaders)) - charged;
  // With a worker replaced, the counts of the one that went are gone: no rate from them.
  const applied =
    replaced.length > 0
      ? null
      : (jobsBetween(jobsBefore, await jobOutcomes(fleet.liveWorkers))?.appended ?? null);
  const readSummary = allReads.summary(loadSeconds);
  const readsByEndpoint = Object.fromEntries(
    [...readTallies].map(([name, tally]) => [name, tally.summary(loadSeconds)]),
  );
  return {
    loadSeconds,
    reads: readSummary,
    readsByEndpoint,
    batches: batches.summary(loadSeconds),
    /** Credits the read key was charged during the load, and the answers that should cost one. */
    charges: {
      charged: chargedDuringLoad,
      chargeable2xx: readSummary.ok - readsByEndpoint.usage!.ok,
    },
    restarts: replaced,
    recordsPerBatch,
    accepted,
    /** Null when the worker no longer answered at the end of the load. */
    appliedPerSecond: applied === null ? null : applied / loadSeconds,
    jobsBefore,
    samples,
  };
}

async function soak() {
  const startedAt = new Date();
  // A tenth of the run (2 to 30 s) lets JIT, pools and caches settle before memory's "start".
  const warmUpSeconds = Math.min(
    30,
    Math.max(options.seconds / 10, Math.min(2, options.seconds / 2)),
  );
  const sampleEverySeconds = Math.min(15, Math.max(0.5, (options.seconds - warmUpSeconds) / 20));
  const failures: string[] = [];

  const infrastructure = await startInfrastructure(context, options);
  let environment: ServiceEnvironment | null = null;
  let fleet: Fleet | null = null;
  try {
    log(
      `Redis: ${infrastructure.description.redis}; database: ${infrastructure.description.database}`,
    );
    environment = await serviceEnvironment(infrastructure.context, 'soak');
    log(
      `soak: ${options.seconds} s on ${environment.database.type}, ` +
        `${options.apis} API and ${options.workers} worker process(es)`,
    );
    const keys = Promise.all([environment.createKey('read'), environment.createKey('ingest')]);
    // Its failure is thrown where it is awaited; until then it must not count as unhandled.
    keys.catch(() => undefined);
    const ended = new AbortController();
    fleet = await Fleet.start(
      environment.env,
      { apis: options.apis, workers: options.workers },
      (service, reason) => {
        failures.push(
          `${service.name} ${reason} at ${seconds(began).toFixed(1)} s${lastOutput(service)}`,
        );
        ended.abort();
      },
    );
    const api = fleet.anyApi;
    const [readKey, ingestKey] = await keys;
    const readHeaders = { authorization: `Bearer ${readKey}` };
    const ingestHeaders = { authorization: `Bearer ${ingestKey}` };

    const seed = [...syntheticRecords(SEED)];
    log(`seeding ${seed.length} records through the API and the worker`);
    // A process that exits now fails the run at once, not when the seeding's waits time out.
    const exited = new Promise<never>((_, reject) => {
      ended.signal.addEventListener('abort', () => reject(new Error(failures.join('\n'))));
    });
    exited.catch(() => undefined);
    await Promise.race([
      ingest(api.origin, ingestHeaders, seed).then(() =>
        untilProjected(api.origin, readHeaders, seed),
      ),
      exited,
    ]);

    const load = await runLoad({
      fleet,
      readHeaders,
      ingestHeaders,
      seed,
      signal: ended.signal,
      warmUpSeconds,
      sampleEverySeconds,
    });
    const { accepted } = load;

    log(`load done; waiting for the worker to put ${accepted.size} records in the event log`);
    const drainStart = performance.now();
    const workerRunning = fleet.liveWorkers.length > 0;
    const missing = await untilInLog(
      environment.database,
      [...accepted.keys()],
      workerRunning ? Date.now() + DRAIN_DEADLINE_MS : Date.now(),
    );
    const drainSeconds = seconds(drainStart);
    const jobs = jobsBetween(load.jobsBefore, await jobOutcomes(fleet.liveWorkers));
    log(`asking the API for each of the ${accepted.size} accepted records`);
    const unserved =
      missing.length === 0
        ? await unservedRecords(fleet.anyApi, readHeaders, [...accepted.values()])
        : [];
    // The read API's requests by database (counted only with read replicas).
    const databaseReads =
      (await countsByLabel(fleet.liveApis, 'database_reads_total', 'target')) ?? {};
    // Before they stop: a process's peak resident memory is gone with it.
    const memory = Object.fromEntries(
      fleet.started.map((service) => [
        service.name,
        {
          summary: summariseMemory(
            load.samples.get(service) ?? [],
            service.peakRssMb(),
            options.maxGrowthMb,
          ),
          samples: load.samples.get(service) ?? [],
        },
      ]),
    );

    failures.push(...(await fleet.stop()));

    if (load.reads.failed > 0) {
      failures.push(`${load.reads.failed} of ${load.reads.requests} reads failed`);
    }
    if (load.batches.failed > 0) {
      failures.push(`${load.batches.failed} of ${load.batches.requests} ingest batches failed`);
    }
    if (missing.length > 0) {
      failures.push(
        `${missing.length} of ${accepted.size} accepted records are not in the event log ` +
          (workerRunning
            ? `${DRAIN_DEADLINE_MS / 1000} s after the load`
            : 'and no worker is left to apply them'),
      );
    }
    if (unserved.length > 0) {
      failures.push(
        `${unserved.length} of ${accepted.size} accepted records are in the log but not served, ` +
          `e.g. ${unserved.slice(0, 5).map(recordLabel).join('; ')}`,
      );
    }
    const { charged, chargeable2xx } = load.charges;
    if (charged !== chargeable2xx) {
      failures.push(
        `the read key was charged ${charged} credits for ${chargeable2xx} charged 2xx answers` +
          (load.reads.errors.timeout
            ? ` (${load.reads.errors.timeout.count} reads timed out here: the API may have answered them 2xx)`
            : ''),
      );
    }
    return {
      date: startedAt.toISOString(),
      options,
      database: environment.database.type,
      machine: await machineInfo(context),
      seed: { spec: SEED, records: seed.length },
      seconds: { warmUp: warmUpSeconds, load: load.loadSeconds, drain: drainSeconds },
      reads: { ...load.reads, byEndpoint: load.readsByEndpoint },
      ingest: {
        recordsPerBatch: load.recordsPerBatch,
        batches: load.batches,
        recordsSent: load.batches.requests * load.recordsPerBatch,
        recordsAccepted: accepted.size,
        acceptedPerSecond: accepted.size / load.loadSeconds,
        appliedPerSecond: load.appliedPerSecond,
        /** The worker's jobs from the start of the load to the end of the drain, by outcome. */
        jobs,
        missing: missing.length,
        missingExamples: missing.slice(0, 20).map((key) => recordLabel(accepted.get(key)!)),
        served: missing.length === 0 ? accepted.size - unserved.length : null,
      },
      charges: load.charges,
      /** By the APIs running at the end (a replaced one's counts went with it). */
      databaseReads,
      restarts: load.restarts,
      infrastructure: infrastructure.description,
      memory,
      failures,
    };
  } finally {
    await fleet?.stop();
    await environment?.cleanup();
    await infrastructure.stop();
  }
}

type SoakReport = Awaited<ReturnType<typeof soak>>;

function printReport(report: SoakReport): void {
  const { reads, ingest } = report;
  console.log(
    `Redis: ${report.infrastructure.redis}; database: ${report.infrastructure.database}; ` +
      `${report.options.apis} API and ${report.options.workers} worker process(es)\n`,
  );
  const load = (name: string, summary: LoadSummary) => [
    name,
    String(summary.requests),
    figure(summary.okPerSecond),
    summary.p50Ms.toFixed(1),
    summary.p99Ms.toFixed(1),
    summary.maxMs.toFixed(1),
    String(summary.failed),
  ];
  printColumns(
    ['requests', 'sent', '2xx/s', 'p50 ms', 'p99 ms', 'max ms', 'failed'],
    [
      load('reads', reads),
      ...Object.entries(reads.byEndpoint).map(([name, summary]) => load(`  ${name}`, summary)),
      load(`ingest batches of ${ingest.recordsPerBatch}`, ingest.batches),
    ],
  );
  const applied = ingest.appliedPerSecond === null ? 'unknown' : figure(ingest.appliedPerSecond);
  const jobs = Object.entries(ingest.jobs ?? {}).map(([outcome, count]) => `${count} ${outcome}`);
  console.log(
    `\nrecords: ${ingest.recordsSent} sent, ${ingest.recordsAccepted} accepted ` +
      `(${figure(ingest.acceptedPerSecond)}/s), applied by the worker during the load ${applied}/s; ` +
      `worker jobs ${jobs.join(', ') || 'unknown'}`,
  );
  console.log(
    ingest.missing === 0
      ? `event log: every accepted record, ${report.seconds.drain.toFixed(1)} s after the load`
      : `event log: ${ingest.missing} accepted records MISSING, e.g. ` +
          ingest.missingExamples.slice(0, 5).join('; '),
  );
  if (ingest.served !== null) {
    console.log(`served: ${ingest.served} of the ${ingest.recordsAccepted} accepted records`);
  }
  const { charged, chargeable2xx } = report.charges;
  console.log(
    `charges: ${charged} credits for ${chargeable2xx} 2xx answers of charged routes ` +
      `(${charged === chargeable2xx ? 'equal' : 'DIFFERENT'})`,
  );
  const statuses = (summary: LoadSummary) =>
    Object.entries(summary.statuses)
      .map(([status, count]) => `${count} x ${status}`)
      .join(', ') || 'none';
  console.log(
    `reads by status: ${statuses(reads)}; ingest batches by status: ${statuses(ingest.batches)}`,
  );
  const targets = Object.entries(report.databaseReads);
  if (targets.length > 0) {
    console.log(
      `read API requests by database (APIs running at the end): ` +
        targets.map(([target, count]) => `${count} ${target}`).join(', '),
    );
  }
  for (const restart of report.restarts) {
    console.log(
      `restart: ${restart.killed} killed at ${restart.atSeconds.toFixed(1)} s, ` +
        `${restart.started} answering ${restart.downSeconds.toFixed(1)} s later`,
    );
  }

  const kinds = [...new Set([...Object.keys(reads.errors), ...Object.keys(ingest.batches.errors)])];
  if (kinds.length > 0) {
    console.log();
    printColumns(
      ['error', 'reads', 'ingest', 'first answer or message'],
      kinds.map((kind) => [
        kind,
        String(reads.errors[kind]?.count ?? 0),
        String(ingest.batches.errors[kind]?.count ?? 0),
        (reads.errors[kind] ?? ingest.batches.errors[kind])!.first.slice(0, 120),
      ]),
    );
  }

  console.log();
  const mb = (value: number) => value.toFixed(1);
  const growth = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(1)}`;
  printColumns(
    ['memory MB', 'RSS start', 'end', 'peak', 'growth', 'heap start', 'end', 'peak', 'growth'],
    Object.entries(report.memory).map(([name, { summary }]) => {
      const figures = (figure: MemoryFigure | null | undefined) =>
        figure
          ? [mb(figure.start), mb(figure.end), mb(figure.peak), growth(figure.growth)]
          : ['-', '-', '-', '-'];
      return [name, ...figures(summary?.rss), ...figures(summary?.heap)];
    }),
  );
  for (const [name, { summary }] of Object.entries(report.memory)) {
    const flagged = summary?.flagged ?? [];
    if (flagged.length === 0) continue;
    console.log(
      `POSSIBLE LEAK: ${name} ${flagged.join(', ')} from ${report.seconds.warmUp.toFixed(0)} s ` +
        `to the end of the load (threshold ${report.options.maxGrowthMb} MB)`,
    );
  }
}

try {
  const report = await soak();
  printReport(report);
  const file = await writeResults(`soak-${report.date.slice(0, 19).replaceAll(':', '-')}`, report);
  log(`wrote ${file}`);
  for (const failure of report.failures) console.log(`\nFAILED: ${failure}`);
  console.log(
    report.failures.length === 0
      ? '\nsoak passed: no process exited, no request failed, every accepted record is in the log'
      : `\nsoak FAILED: ${report.failures.length} reason(s) above`,
  );
  process.exitCode = report.failures.length === 0 ? 0 : 1;
} catch (error) {
  console.error(
    `\nsoak crashed:\n${error instanceof Error ? (error.stack ?? error.message) : error}`,
  );
  // Whatever the crash left waiting (a seeding poll, say) must not keep the soak alive.
  process.exit(1);
}
