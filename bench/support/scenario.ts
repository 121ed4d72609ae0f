/** What every benchmark scenario shares: its context, and the rows it adds to the table. */
export interface BenchContext {
  /** `--quick`: small data and short runs, a smoke test of the suite (CI runs it). */
  quick: boolean;
  /** A PostgreSQL server URL (BENCH_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres). */
  databaseUrl: string;
  /** REDIS_URL, else redis://127.0.0.1:6379. */
  redisUrl: string;
  /** Progress for the person watching; never part of the results. */
  log(message: string): void;
}

/** One row of the results table: a service figure, its baseline's, and the target. */
export interface Measurement {
  scenario: string;
  /** The unit of both figures: 'req/s', 'records/s', 'events/s', 'p99 ms', 'peak RSS MB'. */
  metric: string;
  service: number;
  /** Null where the target is absolute (memory under 200 MB). */
  baseline: number | null;
  baselineName: string | null;
  /** service / baseline, where there is a baseline. */
  ratio: number | null;
  /** Human-readable, e.g. '>= 0.8 x R0', '<= 1.5 x R0' or '< 200 MB'. */
  target: string;
  met: boolean;
  /** Raw numbers behind the row (latencies, counts, query plans), written to the JSON file. */
  details?: Record<string, unknown>;
}

export interface Scenario {
  /** Short id for `--only`, e.g. 'reads', 'companies', 'ingestion', 'rebuild', 'scale'. */
  id: string;
  title: string;
  run(context: BenchContext): Promise<Measurement[]>;
}

/** A row measured against a baseline: at least `minimumRatio` of it. */
export function againstBaseline(
  row: Omit<Measurement, 'ratio' | 'target' | 'met' | 'baseline' | 'baselineName'>,
  baselineName: string,
  baseline: number,
  minimumRatio: number,
): Measurement {
  const ratio = baseline > 0 ? row.service / baseline : 0;
  return {
    ...row,
    baseline,
    baselineName,
    ratio,
    target: `>= ${minimumRatio} x ${baselineName}`,
    met: ratio >= minimumRatio,
  };
}

/** A row with an absolute ceiling (latency, memory). */
export function underCeiling(
  row: Omit<Measurement, 'ratio' | 'target' | 'met' | 'baseline' | 'baselineName'>,
  ceiling: number,
  unit: string,
): Measurement {
  return {
    ...row,
    baseline: null,
    baselineName: null,
    ratio: null,
    target: `< ${ceiling} ${unit}`,
    met: row.service < ceiling,
  };
}

/** A row bounded by its baseline: at most `maximumRatio` of it (CPU per request, latency). */
export function atMostBaseline(
  row: Omit<Measurement, 'ratio' | 'target' | 'met' | 'baseline' | 'baselineName'>,
  baselineName: string,
  baseline: number,
  maximumRatio: number,
): Measurement {
  const ratio = baseline > 0 ? row.service / baseline : Number.POSITIVE_INFINITY;
  return {
    ...row,
    baseline,
    baselineName,
    ratio,
    target: `<= ${maximumRatio} x ${baselineName}`,
    met: ratio <= maximumRatio,
  };
}

/** Every process of every scenario stays under this resident size at its peak. */
const RSS_CEILING_MB = 200;

/** A process's peak resident size (VmHWM), held to the ceiling every scenario shares. */
export function peakRss(
  scenario: string,
  peakMb: number,
  details: Record<string, unknown>,
): Measurement {
  return underCeiling(
    { scenario, metric: 'peak RSS MB', service: peakMb, details },
    RSS_CEILING_MB,
    'MB',
  );
}
