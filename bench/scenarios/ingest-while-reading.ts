/**
 * Scenario 6: reads while batches are ingested. Files by version at a steady rate (open loop),
 * alone and while 16 posters keep 1,000-record batches in flight through
 * `POST /v1/ingest/records`, in alternating windows so that both see the same noise of a shared
 * machine. Checking and queueing a batch is CPU work on the API's event loop: were it done in
 * one go, every read (and the Redis call that counts it, whose deadline is one second) would
 * wait behind it. Target: the reads' p99 with ingest within 3 x their p99 alone, and not one 503
 * (Redis stays healthy throughout).
 *
 * The worker is stopped once the catalogue is in: draining 16 posters' records would take the
 * CPU the API needs on a two-core machine, and this scenario measures the API's event loop, not
 * how two busy processes share a core (the ingestion scenario measures the worker).
 */
import type { IngestRecord } from '#app/domain';
import { parsePrometheusText } from '../../test/support/prometheus-text.js';
import { benchEnvironment, startWorkerAndApi } from '../support/environment.js';
import { BATCH_RECORDS, ingest, untilProjected } from '../support/ingest.js';
import { loadDurations, openLoop, percentile, type Outcome } from '../support/load.js';
import type { Scenario } from '../support/scenario.js';
import type { ServiceProcess } from '../support/service.js';
import { syntheticRecords, type SyntheticLogSpec } from '../support/synthetic-log.js';

const POSTERS = 16;
/** Reads a second: a steady load well below what the API answers, so the p99 is its own. */
const READ_RATE = 200;
const MAX_P99_RATIO = 3;
/** Windows of each kind, alternating; together they last the probe's time of each kind. */
const ROUNDS = 5;

const CATALOGUE: SyntheticLogSpec = {
  companies: 10,
  pagesPerCompany: 1,
  versionsPerPage: 6,
  scrapersPerVersion: 4,
  pricingPerVersion: true,
};

/** What the posters send: scrapes and extractions, as pipelines send most. */
const POSTED: SyntheticLogSpec = { ...CATALOGUE, companies: 50, versionsPerPage: 20 };

export const ingestWhileReadingScenario: Scenario = {
  id: 'ingest-while-reading',
  title: `Reads' p99 alone and while ${POSTERS} posters send 1,000-record batches`,
  async run(context) {
    const environment = await benchEnvironment(context, 'ingest_while_reading');
    const processes: ServiceProcess[] = [];
    try {
      const { worker, api, headers } = await startWorkerAndApi(environment, processes);
      const catalogue = [...syntheticRecords(CATALOGUE)];
      context.log(`ingest-while-reading: ingesting ${catalogue.length} records`);
      await ingest(api.origin, headers, catalogue);
      await untilProjected(api.origin, headers, catalogue);
      await worker.stop();

      const paths = catalogue.flatMap((record) =>
        record.type === 'pricing'
          ? [`/v1/api/files/${record.company_slug}/version/${record.version}`]
          : [],
      );
      const batch = JSON.stringify(postedBatch());
      const { warmUpSeconds, probeSeconds } = loadDurations(context.quick);
      const rounds = context.quick ? 1 : ROUNDS;
      const reads = (seconds: number, into: Reads) =>
        readWindow(api.origin, headers, paths, seconds, into);

      await reads(warmUpSeconds, new Reads());
      const aloneReads = new Reads();
      const duringReads = new Reads();
      const posted = new Posts();
      for (let round = 1; round <= rounds; round++) {
        context.log(`ingest-while-reading: round ${round} of ${rounds}, reads alone`);
        await reads(probeSeconds / rounds, aloneReads);
        context.log(`ingest-while-reading: round ${round} of ${rounds}, with ${POSTERS} posters`);
        const posters = startPosters(api.origin, headers, batch, posted);
        await posters.allSending;
        await reads(probeSeconds / rounds, duringReads);
        await posters.stop();
      }
      const alone = aloneReads.summary();
      const during = duringReads.summary();
      const postedSummary = posted.summary();
      context.log(
        `ingest-while-reading: event-loop delay max ${alone.eventLoopDelayMaxMs.toFixed(0)} ms ` +
          `alone, ${during.eventLoopDelayMaxMs.toFixed(0)} ms with ingest; reads answered ` +
          `${JSON.stringify(during.statusCodes)}, batches ${JSON.stringify(postedSummary.statusCodes)}`,
      );

      const ratio = alone.p99Ms > 0 ? during.p99Ms / alone.p99Ms : 0;
      const unavailable =
        (during.statusCodes['503'] ?? 0) +
        (alone.statusCodes['503'] ?? 0) +
        (postedSummary.statusCodes['503'] ?? 0);
      return [
        {
          scenario: 'ingest while reading · files by version',
          metric: 'p99 ms',
          service: during.p99Ms,
          baseline: alone.p99Ms,
          baselineName: 'no ingest',
          ratio,
          target: `<= ${MAX_P99_RATIO} x no ingest`,
          met: ratio > 0 && ratio <= MAX_P99_RATIO,
          details: {
            rate: READ_RATE,
            posters: POSTERS,
            rounds,
            alone,
            during,
            posted: postedSummary,
          },
        },
        {
          scenario: 'ingest while reading · 503 answers',
          metric: 'answers',
          service: unavailable,
          baseline: null,
          baselineName: null,
          ratio: null,
          target: '0',
          met: unavailable === 0,
          details: { note: 'reads alone, reads with ingest, and the batches posted' },
        },
      ];
    } finally {
      for (const child of processes.reverse()) await child.stop();
      await environment.cleanup();
    }
  },
};

function postedBatch(): IngestRecord[] {
  const records = [...syntheticRecords(POSTED)].filter(
    (record) => record.type === 'scrape' || record.type === 'pricing',
  );
  if (records.length < BATCH_RECORDS) throw new Error('the posted spec is too small');
  return records.slice(0, BATCH_RECORDS);
}

/** What the reads of several windows met. */
class Reads {
  private readonly latencies: number[] = [];
  private readonly statusCodes: Record<string, number> = {};
  /** Requests that got no answer (connection failures). */
  private errors = 0;
  /** The API's longest event-loop delay in any window (prom-client's monitorEventLoopDelay). */
  eventLoopDelayMaxMs = 0;

  add(outcome: Outcome): void {
    if (!('status' in outcome)) {
      this.errors += 1;
      return;
    }
    this.latencies.push(outcome.ms);
    this.statusCodes[outcome.status] = (this.statusCodes[outcome.status] ?? 0) + 1;
  }

  summary() {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    return {
      requests: sorted.length,
      p50Ms: percentile(sorted, 0.5),
      p99Ms: percentile(sorted, 0.99),
      maxMs: sorted.at(-1) ?? 0,
      statusCodes: this.statusCodes,
      errors: this.errors,
      eventLoopDelayMaxMs: this.eventLoopDelayMaxMs,
    };
  }
}

/** Reads at an even rate for `seconds`, and the API's event-loop delay over the same time. */
async function readWindow(
  origin: string,
  headers: Record<string, string>,
  paths: string[],
  seconds: number,
  into: Reads,
): Promise<void> {
  // Each scrape of /metrics resets the delay histogram: the next one covers this window alone.
  await eventLoopDelayMaxMs(origin);
  await openLoop({
    origin,
    headers,
    rate: READ_RATE,
    seconds,
    request: (index) => ({ path: paths[index % paths.length] as string }),
    onOutcome: (_, outcome) => into.add(outcome),
  });
  into.eventLoopDelayMaxMs = Math.max(into.eventLoopDelayMaxMs, await eventLoopDelayMaxMs(origin));
}

async function eventLoopDelayMaxMs(origin: string): Promise<number> {
  const exposition = parsePrometheusText(await (await fetch(`${origin}/metrics`)).text());
  return (exposition.value('nodejs_eventloop_lag_max_seconds') ?? 0) * 1000;
}

/** The answers to the posters' batches. */
class Posts {
  readonly statusCodes: Record<string, number> = {};
  readonly latencies: number[] = [];
  /** Batches that got no answer (connection failures). */
  errors = 0;

  summary() {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    return {
      statusCodes: this.statusCodes,
      errors: this.errors,
      p50Ms: percentile(sorted, 0.5),
      maxMs: sorted.at(-1) ?? 0,
    };
  }
}

/**
 * POSTERS loops, each sending `body` again as soon as its last one is answered; `allSending`
 * resolves once each has a batch on the way. `stop` ends them once their last batches are
 * answered.
 */
function startPosters(origin: string, headers: Record<string, string>, body: string, into: Posts) {
  let stopping = false;
  let sent = 0;
  let everyPosterSending: () => void = () => undefined;
  const allSending = new Promise<void>((resolve) => (everyPosterSending = resolve));
  const poster = async () => {
    while (!stopping) {
      const start = performance.now();
      const answered = fetch(`${origin}/v1/ingest/records`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body,
      });
      if (++sent === POSTERS) everyPosterSending();
      try {
        const response = await answered;
        await response.arrayBuffer();
        into.statusCodes[response.status] = (into.statusCodes[response.status] ?? 0) + 1;
        into.latencies.push(performance.now() - start);
      } catch {
        into.errors += 1;
      }
    }
  };
  const running = Promise.all(Array.from({ length: POSTERS }, poster));
  return {
    allSending,
    async stop(): Promise<void> {
      stopping = true;
      await running;
    },
  };
}
