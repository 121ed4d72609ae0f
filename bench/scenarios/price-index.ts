/**
 * Scenario: the price index (GET /benchmarks/series) at 10,000 pages with 24 extractions each
 * (500 pages in a quick run), against R1 as the plan search is: 1,000 distinct queries drawn at
 * random, each a category and size band, a billing, modality or currency or none, and a range
 * of months or quarters; then what a question costs the first time it is asked (firstAsking).
 * Then GET /benchmarks, on the same data, with the same filters at five
 * dates: it is not kept by the read lane, so every request reads the price index.
 *
 * The log is written straight into the events table (the companies scenario says why), with an
 * EUR to USD rate a month, then the CLI rebuilds the read models from it. Every extraction has one
 * entry price (its Pro plan, per user and billed monthly; a quarter of the pages price in EUR),
 * which rises every year.
 */
import { CATEGORIES, utcDate } from '#app/domain';
import {
  PRICE_INDEX_CHUNK_CANDIDATES,
  pagesStatement,
  type InForceRange,
  type PriceIndexSelection,
} from '#app/persistence';
import type pg from 'pg';
import { r1Of } from '../baselines/r1.js';
import { benchEnvironment } from '../support/environment.js';
import { explainAnalyze } from '../support/explain.js';
import { cpuMeter } from '../support/cpu.js';
import { compareWithBaseline, type RequestVariant } from '../support/load.js';
import { type Measurement, peakRss, type Scenario } from '../support/scenario.js';
import { startService } from '../support/service.js';
import { writeSyntheticLog } from '../support/synthetic-log.js';

const EXTRACTIONS_PER_PAGE = 24;
/**
 * Size bands asked for: of a category's 1,250 pages, 156 each in 1-10, 11-50 and 1000+, 312 each
 * in 51-200 and 201-500 (the synthetic companies' bands).
 */
const BANDS = ['1-10', '11-50', '51-200', '201-500', '1000%2B'];
/** None, or one charge filter, or a currency: each sample is a category and a band's. */
const FILTERS = [
  '',
  '&billing=monthly_recurring_billed_monthly',
  '&modality=user_based',
  '&currency=USD',
  '&currency=EUR',
];
/** Ranges within the four years of history (2022-2025), and one to today. */
const RANGES = [
  '&from=20220101&to=20231231',
  '&from=20230615&to=20241231',
  '&from=20220101&to=20251231&step=quarter',
  '&from=20240101&to=20251231&step=quarter',
  '&from=20250101',
];
/** The dates /benchmarks is asked at. */
const AS_OF = ['20220601', '20230101', '20240315', '20250701', '20251231'];

/** Each sample of 8 categories x 5 bands x 5 filters, with each of `tails`: 1,000 paths. */
function paths(route: string, tails: string[]): RequestVariant[] {
  return CATEGORIES.flatMap((category) =>
    BANDS.flatMap((band) =>
      FILTERS.flatMap((filter) =>
        tails.map((tail) => ({
          path: `${route}?category=${encodeURIComponent(category)}&employees=${band}${filter}${tail}`,
        })),
      ),
    ),
  );
}

export const priceIndexScenario: Scenario = {
  id: 'price-index',
  title: 'Price index (category + size band, a filter, months or quarters) vs R1; benchmarks',
  async run(context) {
    const pages = context.quick ? 500 : 10_000;
    const environment = await benchEnvironment(context, 'price_index');
    const apiStarting = startService('api', environment.env);
    const keyCreated = environment.createKey('read');
    apiStarting.catch(() => undefined);
    keyCreated.catch(() => undefined);
    try {
      context.log(
        `price-index: writing ${pages.toLocaleString('en-US')} pages of ${EXTRACTIONS_PER_PAGE} extractions to the log`,
      );
      const log = await writeSyntheticLog(environment.pool, {
        companies: pages,
        pagesPerCompany: 1,
        versionsPerPage: EXTRACTIONS_PER_PAGE,
        scrapersPerVersion: 1,
        pricingPerVersion: true,
        exchangeRates: true,
      });
      context.log(`price-index: rebuilding the read models from ${log.events} events`);
      const rebuilt = await environment.cli('rebuild');
      context.log(`price-index: ${rebuilt.trim().split('\n').at(-1)}`);
      // What autovacuum does within a minute of the rebuild's inserts: statistics for the
      // planner, and the visibility map that lets a sample read the filter index alone.
      for (const table of ['price_index_versions', 'price_index_entries']) {
        await environment.pool.query(`VACUUM ANALYZE ${table}`);
      }
      await environment.pool.query('ANALYZE companies');
      const counted = await environment.pool.query<{ count: string }>(
        'SELECT count(*) FROM price_index_entries',
      );
      const entries = Number(counted.rows[0]?.count);
      if (entries !== pages * EXTRACTIONS_PER_PAGE) {
        throw new Error(`the rebuild made ${entries} entries, not ${pages * EXTRACTIONS_PER_PAGE}`);
      }

      const api = await apiStarting;
      const headers = { authorization: `Bearer ${await keyCreated}` };
      const service = (variants: RequestVariant[]) => ({
        origin: api.origin,
        pid: api.child.pid,
        headers,
        variants,
        randomOrder: true,
      });
      const series = paths('/v1/api/benchmarks/series', RANGES);
      const rows: Measurement[] = await compareWithBaseline({
        context,
        scenario: 'price index · series',
        // Drawn at random from a thousand distinct questions, as the plan search's.
        service: service(series),
        baselineName: 'R1',
        startBaseline: r1Of(context, environment),
        minimumRatio: 0.5,
      });
      rows[0]!.details = {
        ...rows[0]!.details,
        pages,
        entries,
        queryPlans: await samplePlans(environment.pool),
      };
      rows.push(await firstAsking(api.origin, api.child.pid, headers));
      const [benchmarks] = await compareWithBaseline({
        context,
        scenario: 'price index · benchmarks',
        service: service(
          paths(
            '/v1/api/benchmarks',
            AS_OF.map((date) => `&as_of=${date}`),
          ),
        ),
        baselineName: 'R1',
        startBaseline: r1Of(context, environment),
        minimumRatio: 0,
      });
      // Recorded beside the price index, with no target of its own: what a sample costs read
      // from the database at every request.
      rows.push({ ...benchmarks!, target: 'none (recorded)', met: true });
      rows.push(
        peakRss('price index · api process', api.peakRssMb(), {
          pages,
          note: 'VmHWM after serving the price index and the benchmarks',
        }),
      );
      return rows;
    } finally {
      await apiStarting.then(
        (api) => api.stop(),
        () => undefined,
      );
      await environment.cleanup();
    }
  },
};

/** Questions asked at once while the first asking is measured, as a few clients would. */
const FIRST_ASKING_CONNECTIONS = 4;

/**
 * What a question of the price index costs the first time it is asked, which the throughput
 * mixes with kept answers (how many of those it sends depends on how many first askings the
 * warm-up got through): 1,000 questions no run has asked (each range starting a day later, the
 * same steps), four at a time, with the API's and the whole machine's CPU per question (the
 * machine's is mostly PostgreSQL's). Recorded, with no target.
 */
async function firstAsking(
  origin: string,
  pid: number | undefined,
  headers: Record<string, string>,
): Promise<Measurement> {
  const dayAfter = (date: string) =>
    utcDate(new Date(Date.UTC(+date.slice(0, 4), +date.slice(4, 6) - 1, +date.slice(6, 8) + 1)));
  const dayLater = RANGES.map((range) =>
    range.replace(/from=(\d{8})/, (_, from: string) => `from=${dayAfter(from)}`),
  );
  const questions = paths('/v1/api/benchmarks/series', dayLater).map(({ path }) => path);
  const meter = cpuMeter({ api: pid });
  const started = performance.now();
  let next = 0;
  const asker = async () => {
    for (let path = questions[next++]; path !== undefined; path = questions[next++]) {
      const response = await fetch(origin + path, { headers });
      if (response.status !== 200) throw new Error(`first asking: ${response.status} ${path}`);
      await response.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: FIRST_ASKING_CONNECTIONS }, asker));
  const wallMs = (performance.now() - started) / questions.length;
  const cpu = meter.perUnit(questions.length);
  return {
    scenario: 'price index · first asking',
    metric: 'API CPU ms',
    service: cpu.api ?? Number.NaN,
    baseline: null,
    baselineName: null,
    ratio: null,
    target: 'none (recorded)',
    met: true,
    details: {
      questions: questions.length,
      connections: FIRST_ASKING_CONNECTIONS,
      wallMsPerQuestion: wallMs,
      machineCpuMsPerQuestion: cpu.machine,
    },
  };
}

/**
 * PostgreSQL's plans of the statement behind two requests (PriceIndexReader's first chunk), so
 * the JSON says where the time goes: a category and band over two years, and every page on one
 * date.
 */
async function samplePlans(pool: pg.Pool): Promise<Record<string, string>> {
  const plan = (range: InForceRange, selection: PriceIndexSelection) => {
    const { sql, parameters } = pagesStatement('postgres', range, selection, {
      limit: PRICE_INDEX_CHUNK_CANDIDATES,
    });
    return explainAnalyze(pool, sql, parameters);
  };
  return {
    categoryAndBand: await plan(
      { from: '20220101', to: '20231201' },
      { categories: ['Sales'], employees: ['51-200'] },
    ),
    everyPageOnOneDate: await plan({ from: '20250701', to: '20250701' }, {}),
  };
}
