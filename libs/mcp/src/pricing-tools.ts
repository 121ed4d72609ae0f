import { GET_PARAMETERS } from '#app/client';
import * as z from 'zod';

/**
 * The tools, one per REST route (two for get_files), each taking exactly its route's path and
 * query parameters as the OpenAPI document states them (GET_PARAMETERS, generated from the
 * document, which the routes' declarations make): names, descriptions, formats, bounds,
 * enumerations, defaults and examples, so an assistant can fill them in. Two judges, split by
 * where a value goes:
 * - a query parameter is checked here for its JSON type only, and judged by the REST API alone,
 *   whose 400 then names the code and the parameter: one judge, one set of messages, over HTTP
 *   and in the tools alike. A query value cannot change which route is called.
 * - a path parameter is checked here against its published pattern before any call, and
 *   refused as INVALID_PARAMETER: its value goes into the path, where a dot segment (`..`)
 *   that the URL parser resolves would make the tool call a route it does not name.
 */

/** The GET routes the tools call. */
export type ToolRoute =
  | '/v1/api/companies'
  | '/v1/api/companies/{slug}'
  | '/v1/api/pricing/{slug}'
  | '/v1/api/pricing/{slug}/diff'
  | '/v1/api/pricing/{slug}/series'
  | '/v1/api/changes'
  | '/v1/api/plans'
  | '/v1/api/benchmarks'
  | '/v1/api/compare'
  | '/v1/api/benchmarks/series'
  | '/v1/api/files/{slug}/version/{version}'
  | '/v1/api/files/{slug}/period/{period}';

/** Path and query parameters of one REST call. */
export interface RestCall {
  route: ToolRoute;
  path: Record<string, unknown>;
  query: Record<string, unknown>;
}

/** A refusal made before any call: no route takes the arguments as given. */
interface LocalRefusal {
  refused: { code: string; message: string };
}

interface PricingTool {
  name: string;
  title: string;
  description: string;
  parameters: Record<string, z.ZodType>;
  /** The REST call for the validated arguments. */
  call(args: Record<string, unknown>): RestCall | LocalRefusal;
}

/** One parameter as the document states it. */
type DocumentedParameter = (typeof GET_PARAMETERS)[ToolRoute][number];

/**
 * A route's parameters as the tool publishes them: their bounds published, not enforced (the
 * API judges a query value), each optional unless the route requires it.
 */
function documented(route: ToolRoute): Record<string, z.ZodType> {
  const parameters: readonly DocumentedParameter[] = GET_PARAMETERS[route];
  return Object.fromEntries(
    parameters.map(({ name, required, description, schema, ...parameter }) => {
      const { type, ...bounds } = schema;
      const example = 'example' in parameter ? { examples: [parameter.example] } : {};
      const property =
        type === 'string'
          ? z.string().meta({ description, ...bounds, ...example })
          : z.number().meta({ type, description, ...bounds, ...example });
      return [name, required ? property : property.optional()];
    }),
  );
}

const CREDIT = 'Costs 1 credit when answered; a refused call costs none.';

function routeTool(route: ToolRoute, tool: Omit<PricingTool, 'call' | 'parameters'>): PricingTool {
  const patterns = pathPatterns(route);
  return {
    ...tool,
    parameters: documented(route),
    call: (args) => restCall(route, patterns, args),
  };
}

/** Each path parameter of a route, to the pattern the document states (and its tool publishes). */
function pathPatterns(route: ToolRoute): ReadonlyMap<string, RegExp> {
  const parameters: readonly DocumentedParameter[] = GET_PARAMETERS[route];
  return new Map(
    parameters
      .filter((parameter) => parameter.in === 'path')
      .map(({ name, schema }) => {
        // Without one, any value would go into the path: a tool declared so is not served at all.
        if (!('pattern' in schema)) throw new Error(`${route}: no pattern for ${name}`);
        return [name, new RegExp(schema.pattern)];
      }),
  );
}

/**
 * Splits the arguments into the route's path parameters (named in its template) and its query,
 * or refuses a path parameter outside its pattern.
 */
function restCall(
  route: ToolRoute,
  patterns: ReadonlyMap<string, RegExp>,
  args: Record<string, unknown>,
): RestCall | LocalRefusal {
  const path: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined) continue;
    const pattern = patterns.get(name);
    if (!pattern) {
      query[name] = value;
      continue;
    }
    if (typeof value !== 'string' || !pattern.test(value)) {
      return {
        refused: {
          code: 'INVALID_PARAMETER',
          message: `${name} must match ${pattern.source}, not ${JSON.stringify(value)}`,
        },
      };
    }
    path[name] = value;
  }
  return { route, path, query };
}

const FILES_BY_VERSION = '/v1/api/files/{slug}/version/{version}';
const FILES_BY_PERIOD = '/v1/api/files/{slug}/period/{period}';

const { slug, version } = documented(FILES_BY_VERSION);
const { period } = documented(FILES_BY_PERIOD);
/** The slug and version of the one route, the period of the other: one of the two given. */
const filesParameters = { slug: slug!, version: version!.optional(), period: period!.optional() };

const FILES_PATTERNS = {
  version: pathPatterns(FILES_BY_VERSION),
  period: pathPatterns(FILES_BY_PERIOD),
};

/** get_files: the version route or the period route, as the arguments say. */
const getFiles: PricingTool = {
  name: 'get_files',
  title: 'Scrape files of a version or period',
  description:
    'The scrape files (screenshot, markdown, HTML and OCR URLs, with scraper, validity and ' +
    'score) of a company or one of its pages. Give slug and exactly one of version or period. ' +
    'With version: GET /v1/api/files/{slug}/version/{version}, the files of that version. ' +
    'With period: GET /v1/api/files/{slug}/period/{period}, the format read from the pattern; ' +
    'for a quarter, month or week only the files of the earliest version in the period, and ' +
    'version names it (null when there is none). No scrape in that time is files: [], count: 0. ' +
    CREDIT,
  parameters: filesParameters,
  call({ slug, version, period }) {
    if (version !== undefined && period !== undefined) {
      return {
        refused: {
          code: 'CONFLICTING_PARAMETERS',
          message: 'Give version or period, not both',
        },
      };
    }
    if (version !== undefined) {
      return restCall(FILES_BY_VERSION, FILES_PATTERNS.version, { slug, version });
    }
    if (period !== undefined)
      return restCall(FILES_BY_PERIOD, FILES_PATTERNS.period, { slug, period });
    return {
      refused: {
        code: 'INVALID_PARAMETER',
        message: 'Give version (YYYYMMDD) or period (YYYYMMDD, YYYYQ#, YYYYM##, YYYYW##)',
      },
    };
  },
};

export const PRICING_TOOLS: readonly PricingTool[] = [
  routeTool('/v1/api/companies', {
    name: 'search_companies',
    title: 'Search companies',
    description:
      'List the SaaS companies of the catalogue (GET /v1/api/companies), paginated: ' +
      '{data: [company], pagination}. Filters combine (all must match). Sorted by name unless ' +
      'sort says otherwise. Use it to find the slug the other tools take. ' +
      CREDIT,
  }),
  routeTool('/v1/api/companies/{slug}', {
    name: 'get_company',
    title: 'One company',
    description:
      'One company by its slug (GET /v1/api/companies/{slug}), with updated_at, and with its ' +
      'pricing pages (composite slugs) when include is pages. An unknown slug is 404 with a ' +
      'suggestion of the closest slug. ' +
      CREDIT,
  }),
  routeTool('/v1/api/pricing/{slug}', {
    name: 'get_pricing',
    title: 'Pricing of a page',
    description:
      'The extracted pricing of one pricing page (GET /v1/api/pricing/{slug}): plans, charges ' +
      '(each with its monthly_equivalent), pricing metrics and discounts. With none of ' +
      'version, period and as_of, the latest version; with version, that version; with ' +
      'period, the earliest version within it; with as_of, the latest version on or before ' +
      'that date. Give at most one of the three (else 400 CONFLICTING_PARAMETERS). ' +
      CREDIT,
  }),
  routeTool('/v1/api/pricing/{slug}/diff', {
    name: 'diff_pricing',
    title: 'Pricing changes between two versions',
    description:
      'Plans, charges and discounts added, removed and changed on one pricing page from ' +
      'version from to version to, the latest when to is not given (GET ' +
      '/v1/api/pricing/{slug}/diff). Plans match by internal_name, charges within a plan by ' +
      'billing and display_name, discounts by discount_category. Both versions must have an ' +
      'extraction (get_pricing answers with available_versions when one has not). ' +
      CREDIT,
  }),
  routeTool('/v1/api/changes', {
    name: 'list_changes',
    title: 'Feed of pricing changes',
    description:
      'Pricing changes across all companies, oldest first (GET /v1/api/changes): each ' +
      "extraction's changes from the page's previous version (plan_added, price_increased, " +
      '...), each with its significance (minor, moderate, major; min_significance keeps those ' +
      'that matter that much or more) and, for a price change, its change_percent. Without ' +
      'since, from the beginning; pass the next_cursor of an answer as since to read on (an ' +
      'empty page still has a next_cursor to poll with). ' +
      CREDIT,
  }),
  routeTool('/v1/api/plans', {
    name: 'search_plans',
    title: 'Search plans across companies',
    description:
      "The plans of each page's latest extraction that match every filter given (GET " +
      '/v1/api/plans), paginated: {data: [{company_slug, company_name, category, slug, ' +
      'version, plan}], pagination} with the exact total. Page filters (category, employees, ' +
      'company) select by company; plan filters (discount_category, add_on, free_tier) by ' +
      'plan; charge filters (billing, charge_type, modality, usage_type, price_currency, ' +
      'min_monthly, max_monthly) must all hold on one and the same charge of the plan. Sorted ' +
      'by company name unless sort says monthly (the plan lowest monthly equivalent). ' +
      CREDIT,
  }),
  routeTool('/v1/api/pricing/{slug}/series', {
    name: 'pricing_series',
    title: 'Pricing of a page over time',
    description:
      'The pricing of one page at each step of a range (GET /v1/api/pricing/{slug}/series): ' +
      'one point per week, month or quarter from the step that contains from to the one that ' +
      'contains to, oldest first, each with the latest version on or before its date and its ' +
      'plans and charges with monthly_equivalent (version null and no plans before the ' +
      'first). At most 520 points. ' +
      CREDIT,
  }),
  routeTool('/v1/api/benchmarks', {
    name: 'price_benchmarks',
    title: 'Entry-price benchmarks',
    description:
      'Entry-price quartiles (min, p25, median, p75, max) of a sample of pages, and a ' +
      "company's percentile rank (GET /v1/api/benchmarks). The entry price of a page is the " +
      'lowest monthly equivalent above 0 among the charges of its plans that are not add-ons, ' +
      'in the extraction in force at as_of, counting only the charges that match billing and ' +
      'modality when given. One group per currency, or exactly one with currency. A group of ' +
      'fewer than 3 pages has null figures. ' +
      CREDIT,
  }),
  routeTool('/v1/api/compare', {
    name: 'compare_pricing',
    title: 'Compare pages side by side',
    description:
      'Two to ten pricing pages side by side at one date (GET /v1/api/compare), in the order ' +
      'of slugs (comma-separated, each page once; a company slug means its primary or only ' +
      'page): for each, the latest version on or before as_of (default today; null, with no ' +
      'entry price and no plans, before the first), its entry price (the lowest monthly ' +
      'equivalent above 0 among the charges of its plans that are not add-ons) and its plans ' +
      'with their charges and each plan lowest monthly equivalent, converted into currency ' +
      'when given. ' +
      CREDIT,
  }),
  routeTool('/v1/api/benchmarks/series', {
    name: 'price_index',
    title: 'Entry-price benchmarks over time',
    description:
      'The entry-price quartiles of a sample of pages at the start of each month or quarter of a ' +
      'range (GET /v1/api/benchmarks/series): {from, to, step, currency, points: [{date, ' +
      "groups}]}, each point's groups those price_benchmarks answers with the same filters at " +
      'as_of = its date. from is required; to defaults to today. At most 120 points. ' +
      CREDIT,
  }),
  getFiles,
];
