/**
 * The benchmark suite: `npm run bench` (builds first), `npm run bench -- --quick` (every
 * scenario on small data, in under two minutes: CI's smoke run), `--only reads,companies`.
 *
 * Exits 1 when a scenario crashes, after writing what the others measured; a missed target is
 * a result, not a failure, so it exits 0.
 */
import { parseArgs } from 'node:util';
import { printTable, writeReport, type RunSummary } from './support/report.js';
import type { BenchContext, Measurement, Scenario } from './support/scenario.js';
import { companiesScenario } from './scenarios/companies.js';
import { ingestionScenario } from './scenarios/ingestion.js';
import { ingestWhileReadingScenario } from './scenarios/ingest-while-reading.js';
import { limitsScenario } from './scenarios/limits.js';
import { plansScenario } from './scenarios/plans.js';
import { priceIndexScenario } from './scenarios/price-index.js';
import { readsScenario } from './scenarios/reads.js';
import { rebuildScenario } from './scenarios/rebuild.js';
import { scaleScenario } from './scenarios/scale.js';

const SCENARIOS: Scenario[] = [
  readsScenario,
  companiesScenario,
  plansScenario,
  priceIndexScenario,
  ingestionScenario,
  rebuildScenario,
  scaleScenario,
  ingestWhileReadingScenario,
  limitsScenario,
];

const { values } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, only: { type: 'string' } },
});
const only = values.only?.split(',').map((id) => id.trim()) ?? null;
const unknown = only?.filter((id) => !SCENARIOS.some((scenario) => scenario.id === id)) ?? [];
if (unknown.length > 0) {
  console.error(
    `Unknown scenario ${unknown.join(', ')}; known: ${SCENARIOS.map(({ id }) => id).join(', ')}`,
  );
  process.exit(2);
}

const began = performance.now();
const context: BenchContext = {
  quick: values.quick,
  databaseUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  // stderr, so that stdout is the table alone.
  log: (message) =>
    console.error(`[${((performance.now() - began) / 1000).toFixed(1).padStart(6)} s] ${message}`),
};

const summary: RunSummary = {
  quick: context.quick,
  only,
  startedAt: new Date(),
  durations: {},
  crashes: [],
  measurements: [] as Measurement[],
};
for (const scenario of SCENARIOS.filter(({ id }) => only === null || only.includes(id))) {
  context.log(`${scenario.id}: ${scenario.title}`);
  const start = performance.now();
  try {
    summary.measurements.push(...(await scenario.run(context)));
  } catch (error) {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    console.error(`\n${scenario.id} crashed:\n${text}\n`);
    summary.crashes.push({ scenario: scenario.id, error: text });
  }
  summary.durations[scenario.id] = Math.round((performance.now() - start) / 100) / 10;
  context.log(`${scenario.id}: ${summary.durations[scenario.id]} s`);
}

printTable(summary.measurements);
for (const file of await writeReport(context, summary)) context.log(`wrote ${file}`);
context.log(`done in ${((performance.now() - began) / 1000).toFixed(0)} s`);
process.exitCode = summary.crashes.length > 0 ? 1 : 0;
