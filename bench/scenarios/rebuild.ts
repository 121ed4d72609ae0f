/**
 * Scenario 4: rebuilding every read model from the event log on PostgreSQL. The log is
 * written straight into the events table (as the worker would have appended it), then
 * `cli.js rebuild` runs as its own process, timed from spawn to exit, its peak RSS read while
 * it runs. Against W0 (one connection inserting as many scrape-file rows), in the same run.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { runW0 } from '../baselines/w0.js';
import { benchEnvironment, type BenchEnvironment } from '../support/environment.js';
import { againstBaseline, type BenchContext, peakRss, type Scenario } from '../support/scenario.js';
import { peakRssMb, ROOT, CLI_NODE_FLAGS } from '../support/service.js';
import {
  syntheticEventCount,
  syntheticExtractionCount,
  writeSyntheticLog,
  type SyntheticLog,
  type SyntheticLogSpec,
} from '../support/synthetic-log.js';

const MIN_RATIO = 0.7;

/** About 1,000,000 events (quick: 20,000): four scrapes and one extraction a version. */
function specFor(quick: boolean): SyntheticLogSpec {
  return {
    companies: quick ? 20 : 1_000,
    pagesPerCompany: 2,
    versionsPerPage: 100,
    scrapersPerVersion: 4,
    pricingPerVersion: true,
  };
}

export const rebuildScenario: Scenario = {
  id: 'rebuild',
  title: 'Projection rebuild from the event log vs W0',
  async run(context) {
    const spec = specFor(context.quick);
    const environment = await benchEnvironment(context, 'rebuild');
    try {
      const log = await writeLogWithProgress(context, environment, spec, 'rebuild');
      context.log(`rebuild: W0 inserting ${log.events} rows`);
      const w0 = await runW0(environment.pool, log.events);
      context.log(`rebuild: W0 ${Math.round(w0.rowsPerSecond)} rows/s`);
      context.log(`rebuild: rebuilding ${log.events} events`);
      const rebuild = await timedRebuild(environment, spec);
      context.log(`rebuild: ${Math.round(log.events / rebuild.seconds)} events/s`);
      return [
        againstBaseline(
          {
            scenario: 'rebuild · events replayed',
            metric: 'events/s',
            service: log.events / rebuild.seconds,
            details: { spec, events: log.events, rebuild, W0: w0 },
          },
          'W0',
          w0.rowsPerSecond,
          MIN_RATIO,
        ),
        peakRss('rebuild · cli process', rebuild.peakRssMb, {
          note: `VmHWM of cli.js rebuild over ${log.events} events`,
        }),
      ];
    } finally {
      await environment.cleanup();
    }
  },
};

/** writeSyntheticLog, telling the person watching how far it is every tenth of the way. */
export async function writeLogWithProgress(
  context: BenchContext,
  environment: BenchEnvironment,
  spec: SyntheticLogSpec,
  scenario: string,
): Promise<SyntheticLog & { seconds: number }> {
  const total = syntheticEventCount(spec);
  context.log(`${scenario}: writing ${total} events into the log`);
  const started = performance.now();
  let reported = 0;
  const log = await writeSyntheticLog(environment.pool, spec, (events) => {
    if (events - reported < total / 10) return;
    reported = events;
    const seconds = (performance.now() - started) / 1000;
    context.log(`${scenario}: ${events} events written (${Math.round(events / seconds)}/s)`);
  });
  const seconds = (performance.now() - started) / 1000;
  context.log(`${scenario}: log of ${log.events} events written in ${seconds.toFixed(1)} s`);
  return { ...log, seconds };
}

export interface RebuildRun {
  /** Wall time of the process, from spawn to exit (Nest's start-up included). */
  seconds: number;
  /** What the CLI itself printed ("rebuilt: N events applied in X ms"). */
  summary: string;
  peakRssMb: number;
  /** Rows of each read model afterwards. */
  readModels: Record<string, number>;
}

const RSS_POLL_MS = 50;

/**
 * Runs `node dist/apps/worker/src/cli.js rebuild` with the environment's variables, reading
 * its VmHWM until it exits, then checks that the read models hold the spec's rows.
 */
export async function timedRebuild(
  environment: BenchEnvironment,
  spec: SyntheticLogSpec,
): Promise<RebuildRun> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [...CLI_NODE_FLAGS, 'dist/apps/worker/src/cli.js', 'rebuild'],
    {
      cwd: ROOT,
      env: { ...process.env, ...environment.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const keep = (chunk: string) => (output = (output + chunk).slice(-8000));
  child.stdout.setEncoding('utf8').on('data', keep);
  child.stderr.setEncoding('utf8').on('data', keep);
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  let peak = 0;
  let running = true;
  void exited.then(() => (running = false));
  while (running) {
    peak = Math.max(peak, peakRssMb(child.pid));
    await Promise.race([sleep(RSS_POLL_MS), exited]);
  }
  const [code, signal] = await exited;
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`rebuild exited with ${code ?? signal}:\n${output}`);

  const pages = spec.companies * spec.pagesPerCompany;
  const versions = pages * spec.versionsPerPage;
  const expected: Record<string, number> = {
    companies: spec.companies,
    pricing_pages: pages,
    scrape_files: versions * spec.scrapersPerVersion,
    pricing_snapshots: syntheticExtractionCount(spec),
  };
  const readModels: Record<string, number> = {};
  for (const [table, count] of Object.entries(expected)) {
    const { rows } = await environment.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${table}`,
    );
    readModels[table] = rows[0]?.n ?? 0;
    if (readModels[table] !== count) {
      throw new Error(`after the rebuild ${table} holds ${readModels[table]} of ${count} rows`);
    }
  }
  const summary = /rebuilt:[^\n]*/.exec(output)?.[0] ?? '';
  return { seconds, summary, peakRssMb: peak, readModels };
}
