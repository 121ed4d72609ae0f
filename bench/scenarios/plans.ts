/**
 * Scenario: the plan search on 100,000 plans (5,001 in a quick run), against R1 as the
 * companies search is: one counted read that needs the database once. Each request filters by
 * category and size band, with or without a plan or charge filter, in one of the four orders,
 * and has its exact `total` counted.
 *
 * The log is written straight into the events table (the companies scenario says why), then the
 * CLI rebuilds the read models from it. Every page has two extractions, so the search holds the
 * later one's three plans (free, a per-seat pro plan, an undisclosed enterprise plan).
 */
import { CATEGORIES } from '#app/domain';
import type pg from 'pg';
import { r1Of } from '../baselines/r1.js';
import { benchEnvironment } from '../support/environment.js';
import { compareWithBaseline } from '../support/load.js';
import { peakRss, type Scenario } from '../support/scenario.js';
import { startService } from '../support/service.js';
import { writeSyntheticLog } from '../support/synthetic-log.js';
import { explainAnalyze } from '../support/explain.js';

/** Plans per extraction in the synthetic log. */
const PLANS_PER_PAGE = 3;
/** Size bands asked for: one synthetic company of eight has each of the first and last, two the middle ones. */
const BANDS = ['11-50', '51-200', '201-500', '1000+'];
const SORTS = ['company', '-company', 'monthly', '-monthly'];
/** With none, a plan filter or a charge filter (which must hold on one charge). */
const FILTERS = [
  '',
  '&free_tier=false',
  '&billing=monthly_recurring_billed_monthly',
  '&min_monthly=10',
];
/** Pages of each list asked for: 8 categories x 4 bands x 4 orders x 4 filters x 2 = 1,024 lists. */
const PAGES = 2;

export const plansScenario: Scenario = {
  id: 'plans',
  title: 'Plan search (category + size band, a filter, each order, exact total) vs R1',
  async run(context) {
    const companies = context.quick ? 1_667 : 33_334;
    const environment = await benchEnvironment(context, 'plans');
    const apiStarting = startService('api', environment.env);
    const keyCreated = environment.createKey('read');
    apiStarting.catch(() => undefined);
    keyCreated.catch(() => undefined);
    try {
      context.log(
        `plans: writing ${companies.toLocaleString('en-US')} companies' pages to the log`,
      );
      const log = await writeSyntheticLog(environment.pool, {
        companies,
        pagesPerCompany: 1,
        versionsPerPage: 2,
        scrapersPerVersion: 1,
        pricingPerVersion: true,
      });
      context.log(`plans: rebuilding the read models from ${log.events} events`);
      const rebuilt = await environment.cli('rebuild');
      context.log(`plans: ${rebuilt.trim().split('\n').at(-1)}`);
      // What autovacuum does within a minute of the rebuild's inserts (PostgreSQL 13 and later
      // vacuum after inserts too): statistics for the planner, and the visibility map that
      // lets a count read the index alone.
      for (const table of ['plan_search_plans', 'plan_search_charges', 'plan_search_discounts']) {
        await environment.pool.query(`VACUUM ANALYZE ${table}`);
      }
      await environment.pool.query('ANALYZE companies');
      const counted = await environment.pool.query<{ count: string }>(
        'SELECT count(*) FROM plan_search_plans',
      );
      const plans = Number(counted.rows[0]?.count);
      if (plans !== companies * PLANS_PER_PAGE) {
        throw new Error(`the rebuild made ${plans} plans, not ${companies * PLANS_PER_PAGE}`);
      }

      const api = await apiStarting;
      const headers = { authorization: `Bearer ${await keyCreated}` };
      const lists = CATEGORIES.flatMap((category) =>
        BANDS.flatMap((band) =>
          SORTS.flatMap((sort) =>
            FILTERS.flatMap((filter) =>
              Array.from({ length: PAGES }, (_, index) => ({
                path:
                  `/v1/api/plans?category=${encodeURIComponent(category)}` +
                  `&employees=${encodeURIComponent(band)}${filter}&sort=${sort}&page=${index + 1}`,
              })),
            ),
          ),
        ),
      );
      const rows = await compareWithBaseline({
        context,
        scenario: 'plans · search',
        // Drawn at random from over a thousand distinct lists, as the companies search.
        service: {
          origin: api.origin,
          pid: api.child.pid,
          headers,
          variants: lists,
          randomOrder: true,
        },
        baselineName: 'R1',
        startBaseline: r1Of(context, environment),
        minimumRatio: 0.5,
      });
      rows[0]!.details = {
        ...rows[0]!.details,
        plans,
        queryPlans: await searchPlans(environment.pool),
      };
      rows.push(
        peakRss('plans · api process', api.peakRssMb(), {
          plans,
          note: 'VmHWM after serving the search',
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
 * PostgreSQL's plans of the two statements behind one request (a category, a band and a charge
 * filter, by company name), written as PlanSearchReader writes them, so the JSON says where
 * the time goes: the page in order, and the exact count.
 */
async function searchPlans(pool: pg.Pool): Promise<Record<string, string>> {
  const where =
    'WHERE p.category IN ($1) AND p.employees IN ($2) AND EXISTS (SELECT 1 FROM ' +
    'plan_search_charges c WHERE c.page_id = p.page_id AND c.plan_index = p.plan_index ' +
    'AND c.billing IN ($3) AND c.category IN ($1) AND c.employees IN ($2))';
  const parameters = ['Sales', '51-200', 'monthly_recurring_billed_monthly'];
  const explain = (sql: string, values: unknown[]) => explainAnalyze(pool, sql, values);
  return {
    page: await explain(
      `SELECT p.company_slug, p.company_name, p.category, p.composite_slug, p.version, p.plan
       FROM (
         SELECT * FROM (
           SELECT p.page_id, p.plan_index, p.composite_slug, p.internal_name, p.company_name_key
           FROM plan_search_plans p ${where}
         ) m
         ORDER BY m.company_name_key ASC, m.composite_slug, m.internal_name, m.plan_index
         LIMIT $4 OFFSET $5
       ) k
       JOIN plan_search_plans p ON p.page_id = k.page_id AND p.plan_index = k.plan_index
       ORDER BY k.company_name_key ASC, k.composite_slug, k.internal_name, k.plan_index`,
      [...parameters, 20, 20],
    ),
    count: await explain(`SELECT COUNT(*) AS total FROM plan_search_plans p ${where}`, parameters),
  };
}
