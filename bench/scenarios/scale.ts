/**
 * Scenario 6: reads at scale. Ten million scrape files (quick: fifty thousand) are written
 * straight into the event log and rebuilt into the read models, then the two range reads,
 * `GET /v1/api/files/{slug}/quarter/{quarter}` and `GET /v1/api/pricing/{slug}?period=...`,
 * are measured against R1 (at least half its requests a second, at most twice its open-loop p99
 * at the same rate). The shape keeps a slug's answer realistic (two pages, weekly
 * versions, two scrapers: about fifty files a quarter), so what grows is the table, not the
 * answer, and the latency shows whether an index serves the query.
 *
 * Each endpoint's SQL is captured from the very readers the API uses (a TypeORM data source
 * with a logger that keeps every query) and run again under EXPLAIN (ANALYZE, BUFFERS); the
 * plans go into the rows' details and onto the log.
 */
import 'reflect-metadata';
import { DataSource, type Logger as TypeOrmLogger } from 'typeorm';
import { parsePeriod } from '#app/domain';
import {
  buildDataSourceOptions,
  CompanyReader,
  PageReader,
  PricingSnapshotReader,
  ReadDatabase,
  ScrapeFileReader,
} from '#app/persistence';
import { benchEnvironment, type BenchEnvironment } from '../support/environment.js';
import { r1Of } from '../baselines/r1.js';
import { compareWithBaseline } from '../support/load.js';
import {
  type BenchContext,
  type Measurement,
  peakRss,
  type Scenario,
} from '../support/scenario.js';
import { startService, type ServiceProcess } from '../support/service.js';
import type { SyntheticLog, SyntheticLogSpec } from '../support/synthetic-log.js';
import { timedRebuild, writeLogWithProgress } from './rebuild.js';
import { explainAnalyze } from '../support/explain.js';

const MIN_RATIO = 0.5;
/** Open-loop p99 at most this multiple of R1's at the same rate. */
const MAX_P99_RATIO = 2;
/** Distinct paths per endpoint, cycled through by every connection. */
const VARIANTS = 1_000;

/** Scrape files per company: 2 pages x 208 weekly versions (four years) x 2 scrapers. */
const FILES_PER_COMPANY = 2 * 208 * 2;

/**
 * 12,000 companies: 9,984,000 scrape files, and an extraction every fourth version
 * (1,248,000); quick: 60 companies, 49,920 files. BENCH_SCALE_FILES sets another size (say
 * 1000000 for a run of minutes instead of an hour).
 */
function specFor(quick: boolean): SyntheticLogSpec {
  const files = Number(process.env.BENCH_SCALE_FILES ?? (quick ? 50_000 : 10_000_000));
  if (!Number.isInteger(files) || files < FILES_PER_COMPANY) {
    throw new Error(`BENCH_SCALE_FILES must be a whole number of at least ${FILES_PER_COMPANY}`);
  }
  return {
    companies: Math.round(files / FILES_PER_COMPANY),
    pagesPerCompany: 2,
    versionsPerPage: 208,
    scrapersPerVersion: 2,
    pricingPerVersion: true,
    pricingEveryVersions: 4,
  };
}

export const scaleScenario: Scenario = {
  id: 'scale',
  title: 'Range reads over ten million scrape files',
  async run(context) {
    const spec = specFor(context.quick);
    const environment = await benchEnvironment(context, 'scale');
    let api: ServiceProcess | null = null;
    try {
      const log = await writeLogWithProgress(context, environment, spec, 'scale');
      context.log(`scale: rebuilding the read models from ${log.events} events`);
      const rebuild = await timedRebuild(environment, spec);
      context.log(`scale: rebuilt in ${rebuild.seconds.toFixed(1)} s (${rebuild.summary})`);
      const plans = await explainEndpoints(context, environment, log);

      api = await startService('api', environment.env);
      const key = await environment.createKey('read');
      const headers = { authorization: `Bearer ${key}` };
      const quarters = quartersBetween(log.firstVersion, log.lastVersion);
      const slugs = sample(log.companySlugs, VARIANTS);
      const endpoints = [
        {
          name: 'files by quarter',
          plan: plans.files,
          path: (slug: string, quarter: string) => `/v1/api/files/${slug}/quarter/${quarter}`,
        },
        {
          name: 'pricing by period',
          plan: plans.pricing,
          path: (slug: string, quarter: string) => `/v1/api/pricing/${slug}?period=${quarter}`,
        },
      ];
      const rows: Measurement[] = [];
      for (const endpoint of endpoints) {
        const scenario = `scale · ${endpoint.name}`;
        const compared = await compareWithBaseline({
          context,
          scenario,
          service: {
            origin: api.origin,
            pid: api.child.pid,
            headers,
            variants: slugs.map((slug, index) => ({
              path: endpoint.path(slug, quarters[(index * 7) % quarters.length] as string),
            })),
          },
          baselineName: 'R1',
          startBaseline: r1Of(context, environment),
          minimumRatio: MIN_RATIO,
          maximumP99Ratio: MAX_P99_RATIO,
        });
        compared[0]!.details = {
          ...compared[0]!.details,
          spec,
          scrapeFiles: rebuild.readModels.scrape_files,
          plan: endpoint.plan,
        };
        rows.push(...compared);
      }
      rows.push(
        peakRss('scale · api process', api.peakRssMb(), { note: 'VmHWM after both loads' }),
        peakRss('scale · rebuild cli process', rebuild.peakRssMb, {
          events: log.events,
          logSeconds: log.seconds,
          rebuild,
        }),
      );
      return rows;
    } finally {
      await api?.stop();
      await environment.cleanup();
    }
  },
};

interface ExplainedQuery {
  sql: string;
  parameters: unknown[];
  plan: string;
  /** Indexes the plan reads, and tables it scans whole. */
  indexes: string[];
  seqScans: string[];
}

/** Captures every query TypeORM runs, with its parameters. */
class QueryCapture implements TypeOrmLogger {
  queries: { sql: string; parameters: unknown[] }[] = [];
  logQuery(sql: string, parameters?: unknown[]) {
    this.queries.push({ sql, parameters: parameters ?? [] });
  }
  logQueryError() {}
  logQuerySlow() {}
  logSchemaBuild() {}
  logMigration() {}
  log() {}
}

/**
 * The queries behind each endpoint, as the API's readers issue them (slug resolution, then the
 * range read), run under EXPLAIN (ANALYZE, BUFFERS) on a slug and quarter from the middle.
 */
async function explainEndpoints(
  context: BenchContext,
  environment: BenchEnvironment,
  log: SyntheticLog,
): Promise<{ files: ExplainedQuery[]; pricing: ExplainedQuery[] }> {
  const capture = new QueryCapture();
  const dataSource = new DataSource({
    ...buildDataSourceOptions({
      type: 'postgres',
      url: environment.env.DATABASE_URL as string,
      schema: environment.schema,
      statementTimeoutMs: 0,
    }),
    logging: ['query'],
    logger: capture,
  });
  await dataSource.initialize();
  try {
    const reads = new ReadDatabase(dataSource);
    const companies = new CompanyReader(reads);
    const pages = new PageReader(reads);
    const files = new ScrapeFileReader(reads);
    const snapshots = new PricingSnapshotReader(reads);
    const slug = log.companySlugs[Math.floor(log.companySlugs.length / 2)] as string;
    const quarters = quartersBetween(log.firstVersion, log.lastVersion);
    const quarter = quarters[Math.floor(quarters.length / 2)] as string;
    const parsed = parsePeriod(quarter);
    if (!parsed.ok) throw new Error(`bad quarter ${quarter}`);
    const { start, end } = parsed.period;

    const run = async (work: () => Promise<unknown>) => {
      capture.queries = [];
      await work();
      return capture.queries.filter(({ sql }) => /^\s*SELECT/i.test(sql));
    };
    const resolve = async () => {
      const company = await companies.findBySlug(slug);
      if (!company) throw new Error(`no company ${slug}`);
      return pages.listByCompany(company.slug);
    };
    const filesQueries = await run(async () => {
      const found = await resolve();
      await files.inRange(
        found.map((page) => page.id),
        start,
        end,
      );
    });
    const pricingQueries = await run(async () => {
      const found = await resolve();
      const primary = found.find((page) => page.pageSlug === '') ?? found[0];
      if (primary) await snapshots.earliestInRange(primary.id, start, end);
    });
    const explained = {
      files: await explainAll(environment, filesQueries),
      pricing: await explainAll(environment, pricingQueries),
    };
    for (const [endpoint, queries] of Object.entries(explained)) {
      for (const query of queries) {
        context.log(
          `scale: EXPLAIN (ANALYZE, BUFFERS) of a ${endpoint} query (${slug}, ${quarter}):\n` +
            `${query.sql.replace(/^SELECT .*? FROM /s, 'SELECT <columns> FROM ')}\n${query.plan}`,
        );
        if (query.seqScans.length > 0) {
          context.log(`scale: WARNING: ${endpoint} scans ${query.seqScans.join(', ')} whole`);
        }
      }
    }
    return explained;
  } finally {
    await dataSource.destroy();
  }
}

async function explainAll(
  environment: BenchEnvironment,
  queries: { sql: string; parameters: unknown[] }[],
): Promise<ExplainedQuery[]> {
  const explained: ExplainedQuery[] = [];
  for (const { sql, parameters } of queries) {
    const plan = await explainAnalyze(environment.pool, sql, parameters);
    explained.push({
      sql,
      parameters,
      plan,
      indexes: [...plan.matchAll(/using "?([\w]+)"?/gi)].map((match) => match[1] as string),
      seqScans: [...plan.matchAll(/Seq Scan on "?([\w.]+)"?/g)].map((match) => match[1] as string),
    });
  }
  return explained;
}

/** Every quarter (YYYYQ#) from the one holding `first` to the one holding `last`. */
function quartersBetween(first: string, last: string): string[] {
  const index = (version: string) =>
    Number(version.slice(0, 4)) * 4 + Math.floor((Number(version.slice(4, 6)) - 1) / 3);
  const quarters: string[] = [];
  for (let q = index(first); q <= index(last); q++) {
    quarters.push(`${Math.floor(q / 4)}Q${(q % 4) + 1}`);
  }
  return quarters;
}

/** Up to `count` items spread evenly over `items`. */
function sample<T>(items: T[], count: number): T[] {
  if (items.length <= count) return items;
  const step = items.length / count;
  return Array.from({ length: count }, (_, index) => items[Math.floor(index * step)] as T);
}
