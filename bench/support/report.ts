/**
 * What a benchmark run leaves behind: the table on stdout, the figures with the machine that
 * measured them in bench/results/, and, after a complete full run, the chart and the table in
 * BENCHMARKS.md.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import * as prettier from 'prettier';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { BenchContext, Measurement } from './scenario.js';
import { ROOT } from './service.js';

const run = promisify(execFile);

const RESULTS_DIRECTORY = join(ROOT, 'bench/results');
const CHART_FILE = 'bench/results/chart.svg';
const BENCHMARKS_FILE = join(ROOT, 'BENCHMARKS.md');
const START_MARKER = '<!-- bench:results:start -->';
const END_MARKER = '<!-- bench:results:end -->';

export interface RunSummary {
  quick: boolean;
  /** The `--only` ids, or null when every scenario ran. */
  only: string[] | null;
  startedAt: Date;
  /** Seconds each scenario took, crashed ones included. */
  durations: Record<string, number>;
  crashes: Array<{ scenario: string; error: string }>;
  measurements: Measurement[];
}

const COLUMNS = ['scenario', 'metric', 'service', 'baseline', 'ratio', 'target', 'met'] as const;

function cells(row: Measurement): string[] {
  return [
    row.scenario,
    row.metric,
    figure(row.service),
    row.baseline === null ? '' : `${figure(row.baseline)} (${row.baselineName})`,
    row.ratio === null ? '' : row.ratio.toFixed(2),
    row.target,
    row.met ? 'yes' : 'NO',
  ];
}

/** Three significant figures or whole units, whichever is longer. */
export function figure(value: number): string {
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US');
  return value.toPrecision(3);
}

export function printTable(measurements: Measurement[]): void {
  printColumns([...COLUMNS], measurements.map(cells));
}

/** A plain-text table on stdout: each column as wide as its widest cell. */
export function printColumns(header: string[], body: string[][]): void {
  const rows = [header, ...body];
  const widths = header.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  console.log(
    [
      line(rows[0]!),
      widths.map((width) => '-'.repeat(width)).join('  '),
      ...rows.slice(1).map(line),
    ].join('\n'),
  );
}

/** Writes the results; returns the paths written, relative to the project root. */
export async function writeReport(context: BenchContext, summary: RunSummary): Promise<string[]> {
  const date = summary.startedAt.toISOString().slice(0, 10);
  // A partial run must not overwrite the day's complete one.
  const name = [date, ...(summary.only ?? []), ...(summary.quick ? ['quick'] : [])].join('-');
  const machine = await machineInfo(context);
  const resultsFile = await writeResults(name, {
    date: summary.startedAt.toISOString(),
    quick: summary.quick,
    only: summary.only,
    machine,
    durations_seconds: summary.durations,
    crashes: summary.crashes,
    measurements: summary.measurements,
  });
  const written = [resultsFile];
  if (summary.quick || summary.only !== null || summary.crashes.length > 0) return written;

  writeFileSync(join(ROOT, CHART_FILE), await chartSvg(summary.measurements));
  written.push(CHART_FILE);
  await writeFormatted('BENCHMARKS.md', benchmarksDocument(summary, machine, resultsFile));
  written.push('BENCHMARKS.md');
  return written;
}

/** Writes `document` to bench/results/<name>.json; returns that path, relative to the root. */
export async function writeResults(name: string, document: unknown): Promise<string> {
  mkdirSync(RESULTS_DIRECTORY, { recursive: true });
  const file = `bench/results/${name}.json`;
  await writeFormatted(file, JSON.stringify(document));
  return file;
}

/** Prettier's formatting, so `npm run lint` passes on what the run wrote. */
async function writeFormatted(file: string, text: string): Promise<void> {
  const path = join(ROOT, file);
  const options = (await prettier.resolveConfig(path)) ?? {};
  writeFileSync(path, await prettier.format(text, { ...options, filepath: path }));
}

type MachineInfo = Awaited<ReturnType<typeof machineInfo>>;

/** The machine, the servers and the commit behind a run's figures. */
export async function machineInfo(context: Pick<BenchContext, 'databaseUrl' | 'redisUrl'>) {
  const cpus = os.cpus();
  return {
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    cpu: cpus[0]?.model ?? 'unknown',
    cpus: cpus.length,
    memory_gb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    // A run that crashed because a server is away still writes what it measured.
    postgresql: context.databaseUrl.startsWith('postgres')
      ? await postgresVersion(context.databaseUrl).catch(unavailable)
      : 'not used',
    redis: await redisVersion(context.redisUrl).catch(unavailable),
    git: await gitState(),
  };
}

function unavailable(error: Error): string {
  return `unavailable (${error.message})`;
}

async function postgresVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
    return rows[0]?.server_version ?? 'unknown';
  } finally {
    await client.end();
  }
}

async function redisVersion(url: string): Promise<string> {
  const redis = new Redis(url, { lazyConnect: true });
  try {
    await redis.connect();
    const info = await redis.info('server');
    return /^redis_version:(\S+)/m.exec(info)?.[1] ?? 'unknown';
  } finally {
    redis.disconnect();
  }
}

async function gitState(): Promise<{ commit: string; dirty: boolean }> {
  const git = (...args: string[]) => run('git', args, { cwd: ROOT }).then(({ stdout }) => stdout);
  const [commit, status] = await Promise.all([
    git('rev-parse', 'HEAD'),
    git('status', '--porcelain'),
  ]);
  return { commit: commit.trim(), dirty: status.trim().length > 0 };
}

/** The first number of a target such as '>= 0.8 x R0' or '< 10 ms'. */
function targetValue(target: string): number | null {
  const match = /(\d+(?:\.\d+)?)/.exec(target);
  return match ? Number(match[1]) : null;
}

/** Two panels: each throughput against its baseline, and each p99 against its ceiling. */
async function chartSvg(measurements: Measurement[]): Promise<string> {
  const bars = (
    rows: Measurement[],
    value: (row: Measurement) => number,
    target: (row: Measurement) => number | null = (row) => targetValue(row.target),
  ) =>
    rows.map((row) => ({
      label: row.baselineName ? `${row.scenario} vs ${row.baselineName}` : row.scenario,
      value: value(row),
      target: target(row),
      met: row.met ? 'target met' : 'target missed',
    }));
  // A p99 measured against a baseline (ingest while reading: '<= 3 x no ingest') belongs with
  // the latencies, its target then a multiple of the baseline's milliseconds.
  const isLatency = (row: Measurement) => row.metric.startsWith('p99');
  const latencyTarget = (row: Measurement) => {
    const target = targetValue(row.target);
    return target === null || row.baseline === null ? target : target * row.baseline;
  };
  const panel = (title: string, axis: string, values: ReturnType<typeof bars>) => ({
    title,
    width: 480,
    data: { values },
    encoding: {
      y: {
        field: 'label',
        type: 'nominal' as const,
        sort: null,
        title: null,
        axis: { labelLimit: 400 },
      },
    },
    layer: [
      {
        mark: 'bar' as const,
        encoding: {
          x: { field: 'value', type: 'quantitative' as const, title: axis },
          color: {
            field: 'met',
            type: 'nominal' as const,
            scale: { domain: ['target met', 'target missed'], range: ['#4c78a8', '#e45756'] },
            title: null,
          },
        },
      },
      {
        mark: { type: 'tick' as const, color: 'black', thickness: 2 },
        encoding: { x: { field: 'target', type: 'quantitative' as const } },
      },
    ],
  });
  const spec: TopLevelSpec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: 'Service against baselines (black tick: target)',
    vconcat: [
      panel(
        'Throughput as a share of its baseline',
        'service / baseline',
        bars(
          measurements.filter((row) => row.ratio !== null && row.target.startsWith('>=')),
          (row) => row.ratio!,
        ),
      ),
      panel(
        'p99 latency',
        'ms',
        bars(measurements.filter(isLatency), (row) => row.service, latencyTarget),
      ),
    ],
  };
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  return view.toSVG();
}

function benchmarksDocument(summary: RunSummary, machine: MachineInfo, resultsFile: string) {
  const table = [
    `| ${COLUMNS.join(' | ')} |`,
    `| ${COLUMNS.map(() => '---').join(' | ')} |`,
    ...summary.measurements.map(
      (row) =>
        `| ${cells(row)
          .map((cell) => cell.replaceAll('|', '\\|'))
          .join(' | ')} |`,
    ),
  ].join('\n');
  const section = [
    START_MARKER,
    '',
    `Measured on ${summary.startedAt.toISOString().slice(0, 10)} at commit ` +
      `\`${machine.git.commit.slice(0, 12)}\`${machine.git.dirty ? ' (with uncommitted changes)' : ''}, ` +
      `on ${machine.cpus} × ${machine.cpu}, ${machine.memory_gb} GB, ${machine.os}; ` +
      `Node.js ${machine.node}, PostgreSQL ${machine.postgresql}, Redis ${machine.redis}. ` +
      `Every figure in \`${resultsFile}\`.`,
    '',
    table,
    '',
    `![Throughput against baselines and p99 latency](${CHART_FILE})`,
    '',
    END_MARKER,
  ].join('\n');
  const current = existsSync(BENCHMARKS_FILE)
    ? readFileSync(BENCHMARKS_FILE, 'utf8')
    : `${BENCHMARKS_INTRO}\n${START_MARKER}\n${END_MARKER}\n`;
  const start = current.indexOf(START_MARKER);
  const end = current.indexOf(END_MARKER);
  if (start < 0 || end < start) {
    throw new Error(`BENCHMARKS.md lacks the markers ${START_MARKER} ... ${END_MARKER}`);
  }
  return current.slice(0, start) + section + current.slice(end + END_MARKER.length);
}

/** The hand-written part of a new BENCHMARKS.md; once the file exists, the file is the source. */
const BENCHMARKS_INTRO = `# Benchmarks

\`npm run bench\` builds the project and runs every scenario on the local PostgreSQL
(\`BENCH_DATABASE_URL\`, default \`postgres://postgres@127.0.0.1:5432/postgres\`) and Redis
(\`REDIS_URL\`, default \`redis://127.0.0.1:6379\`). Each scenario gets its own schema and Redis
prefix and drops them at the end. \`npm run bench -- --quick\` runs the whole suite on small data
in under two minutes (CI runs it as a smoke test: it fails on a crash, never on a figure);
\`--only reads,companies\` runs some scenarios.

Figures on a shared machine are noisy, so each throughput is compared with a baseline measured
in the same run on the same machine, and its target is a ratio to that baseline; latency and
memory have absolute ceilings:

| scenario  | what it measures                                                                     | baseline or target                                                                    |
| --------- | ------------------------------------------------------------------------------------ | ------------------------------------------------------------------------------------- |
| reads     | \`GET /files/{slug}/version/{v}\`, \`GET /pricing/{slug}?version=\`: key, counting, headers | R0: bare Fastify, one Redis Lua script that counts the request, a body of the same size |
| companies | \`GET /companies?search=&category=\`, \`GET /companies/{slug}\` at 100,000 companies     | R1: R0 plus one PostgreSQL \`SELECT\` by primary key                                    |
| ingestion | records through \`POST /v1/ingest/records\`, the queue and the worker to the read models | I0: BullMQ draining the same records into one table with multi-row \`INSERT\`s          |
| rebuild   | \`cli rebuild\`: about a million events replayed into every read model                 | W0: one connection inserting as many scrape-file rows with multi-row \`INSERT\`s        |
| scale     | \`GET /files/{slug}/quarter/{q}\`, \`GET /pricing/{slug}?period=\` over ten million files | an absolute p99                                                                       |
| ingest-while-reading | \`GET /files/{slug}/version/{v}\` at 200 req/s, alone and while 16 posters keep 1,000-record batches in flight | p99 with ingest <= 3 x p99 alone; no 503 |

Throughput runs use 50 connections (autocannon) after a warm-up. A p99 measured at saturation
is only the queue behind 50 connections (connections / throughput), so latency is measured
apart: requests sent at an even rate of half the service's maximum, each timed from when it was
due. Memory is the peak resident set (VmHWM) of each process. The JSON results also hold, per
throughput run, the CPU time the answering process spent per request, which contention moves
far less than requests/s.

## Results
`;
