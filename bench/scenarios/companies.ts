/**
 * Scenario 2: the companies endpoints on a catalogue of 100,000 companies (5,000 in a quick
 * run): a search with a category filter, and one company by slug. Against R1, which counts on
 * Redis, reads one row by primary key and answers as many bytes.
 *
 * The companies are written straight into the event log (ingesting 100,000 through the queue
 * would be its own benchmark, the ingestion scenario's), then the CLI rebuilds the read models
 * from it, as after a deployment that replays the log.
 */
import { CATEGORIES } from '#app/domain';
import type pg from 'pg';
import { r1Of } from '../baselines/r1.js';
import { benchEnvironment } from '../support/environment.js';
import { compareWithBaseline } from '../support/load.js';
import { type Measurement, peakRss, type Scenario } from '../support/scenario.js';
import { startService } from '../support/service.js';
import { writeSyntheticLog } from '../support/synthetic-log.js';
import { explainAnalyze } from '../support/explain.js';

/**
 * Substrings of the synthetic names ("Acmehub 000123"): each in one name of eight, so a search
 * with a category matches about 1,500 companies, 78 pages of 20.
 */
const SEARCHES = ['ly', 'hub', 'stack', 'forge', 'desk', 'flow', 'base', 'wise'];
/** Pages of each (search, category) asked for: 8 x 8 categories x 16 = 1,024 distinct lists. */
const PAGES = 16;
/** Slugs the single-company requests rotate through, spread over the whole table. */
const SLUG_SAMPLE = 1_000;

export const companiesScenario: Scenario = {
  id: 'companies',
  title: 'Companies list (search + category) and company by slug vs R1',
  async run(context) {
    const companies = context.quick ? 5_000 : 100_000;
    const environment = await benchEnvironment(context, 'companies');
    // The API starts, and the key is made, while the log is written and replayed.
    const apiStarting = startService('api', environment.env);
    const keyCreated = environment.createKey('read');
    // Their failures are thrown where they are awaited; until then they are not unhandled.
    apiStarting.catch(() => undefined);
    keyCreated.catch(() => undefined);
    try {
      context.log(`companies: writing ${companies.toLocaleString('en-US')} companies to the log`);
      const log = await writeSyntheticLog(environment.pool, {
        companies,
        pagesPerCompany: 1,
        // No scrape is written, but the generator's version arithmetic wants one per page.
        versionsPerPage: 1,
        scrapersPerVersion: 0,
        pricingPerVersion: false,
      });
      context.log(`companies: rebuilding the read models from ${log.events} events`);
      const rebuilt = await environment.cli('rebuild');
      context.log(`companies: ${rebuilt.trim().split('\n').at(-1)}`);
      // Autovacuum would analyze the new rows within a minute; without statistics the planner
      // takes a category for 42 rows of 100,000, and we would measure that minute instead.
      await environment.pool.query('ANALYZE companies');
      const counted = await environment.pool.query<{ count: string }>(
        'SELECT count(*) FROM companies',
      );
      if (Number(counted.rows[0]?.count) !== companies) {
        throw new Error(`the rebuild made ${counted.rows[0]?.count} companies, not ${companies}`);
      }

      const api = await apiStarting;
      const headers = { authorization: `Bearer ${await keyCreated}` };
      const list = SEARCHES.flatMap((search) =>
        CATEGORIES.flatMap((category) =>
          Array.from({ length: PAGES }, (_, index) => ({
            path:
              `/v1/api/companies?search=${search}&category=${encodeURIComponent(category)}` +
              `&page=${index + 1}`,
          })),
        ),
      );
      const step = Math.max(1, Math.floor(log.companySlugs.length / SLUG_SAMPLE));
      const one = log.companySlugs
        .filter((_, index) => index % step === 0)
        .map((slug) => ({ path: `/v1/api/companies/${slug}` }));

      const startBaseline = r1Of(context, environment);
      const rows: Measurement[] = [];
      for (const { scenario, variants, randomOrder, minimumRatio } of [
        // Drawn at random from over a thousand distinct lists: no cache of a few carries it.
        {
          scenario: 'companies · search + category',
          variants: list,
          randomOrder: true,
          minimumRatio: 0.5,
        },
        {
          scenario: 'companies · one by slug',
          variants: one,
          randomOrder: false,
          minimumRatio: 0.8,
        },
      ]) {
        rows.push(
          ...(await compareWithBaseline({
            context,
            scenario,
            service: { origin: api.origin, pid: api.child.pid, headers, variants, randomOrder },
            baselineName: 'R1',
            startBaseline,
            minimumRatio,
          })),
        );
      }
      rows[0]!.details = { ...rows[0]!.details, plans: await listPlans(environment.pool) };
      rows.push(
        peakRss('companies · api process', api.peakRssMb(), {
          companies,
          note: 'VmHWM after serving both endpoints',
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

/**
 * PostgreSQL's plans of the two queries behind a list request, as CompanyReader sends them, so
 * the JSON says where the time goes: one page of the matches in order, and their count (once
 * for each question and state of the read model: the lane keeps the answer).
 */
async function listPlans(pool: pg.Pool): Promise<Record<string, string>> {
  const where = "(LOWER(name) LIKE $1 ESCAPE '\\' OR slug LIKE $1 ESCAPE '\\') AND category = $2";
  const explain = (sql: string, parameters: unknown[]) => explainAnalyze(pool, sql, parameters);
  const search = ['%hub%', 'Sales'];
  return {
    page: await explain(
      `SELECT * FROM companies WHERE ${where} ORDER BY name, id LIMIT 20`,
      search,
    ),
    count: await explain(`SELECT COUNT(*) FROM companies WHERE ${where}`, search),
  };
}
