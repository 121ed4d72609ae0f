import type { paths } from '#app/client';
import {
  CATEGORIES,
  COMPANY_SLUG,
  PRICING_CHANGE_TYPES,
  SERIES_STEPS,
  VALUE_PATTERNS,
} from '#app/domain';
import * as z from 'zod';

/**
 * The tools, one per REST route (two for get_files), each taking exactly its route's path and
 * query parameter names: the compiler holds the names to the typed client's OpenAPI types.
 *
 * Formats, bounds and enumerations are published in each tool's input schema (as the OpenAPI
 * document states them, so an assistant can fill them in). Two judges, split by where a value
 * goes:
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
  | '/v1/api/files/{slug}/version/{version}'
  | '/v1/api/files/{slug}/period/{period}';

type RouteParameters<P extends ToolRoute> = NonNullable<paths[P]['get']>['parameters'];
/** The keys of an optional parameter group; none for a group the route does not have. */
type NamesOf<T> = [NonNullable<T>] extends [never] ? never : keyof NonNullable<T>;
/** The path and query parameter names of a route. */
export type RouteParameterName<P extends ToolRoute> =
  NamesOf<RouteParameters<P>['path']> | NamesOf<RouteParameters<P>['query']>;
/** One schema for each of the route's parameters, no more and no fewer. */
type ParameterShape<P extends ToolRoute> = { [K in RouteParameterName<P>]: z.ZodType };

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

// The OpenAPI document's patterns, from the domain as the document takes them (the sort's
// field list is the persistence layer's, out of this library's reach, and is written below).
const SLUG_PATTERN = COMPANY_SLUG.source;
const DATE_PATTERN = VALUE_PATTERNS.version;
const PERIOD_PATTERN = VALUE_PATTERNS.period;
const CURRENCY_PATTERN = VALUE_PATTERNS.currencyParameter;
const CATEGORY_NAMES = CATEGORIES.join(', ');

interface StringBounds {
  pattern?: string;
  enum?: readonly string[];
  maxLength?: number;
  default?: string;
  examples?: string[];
}

interface NumberBounds {
  minimum?: number;
  maximum?: number;
  default?: number;
}

/** A string argument; its bounds are published, not enforced (the API judges them). */
const text = (description: string, bounds: StringBounds = {}) =>
  z.string().meta({ description, ...bounds });
const integer = (description: string, bounds: NumberBounds = {}) =>
  z.number().meta({ type: 'integer', description, ...bounds });
const decimal = (description: string, bounds: NumberBounds = {}) =>
  z.number().meta({ description, ...bounds });

/** A page of a company: what pricing, series and diff take. */
const pageSlug = () =>
  text(
    'The full company slug (acmechat.io), the company slug without its domain extension ' +
      '(acmechat), or a composite page slug (bytewatch.enterprise). An exact company slug wins ' +
      'over a composite reading. A company slug means its primary page, or its only page; with ' +
      'several pages and no primary one the answer is 400 PAGE_REQUIRED, listing the composite ' +
      'slugs to use.',
    { pattern: SLUG_PATTERN, examples: ['acmechat'] },
  );

const currency = () =>
  text(
    "Convert each charge's monthly equivalent into this currency (three letters, any case) at " +
      'the exchange rate of the latest date on or before its version: each charge then carries ' +
      'converted (null without a rate)',
    { pattern: CURRENCY_PATTERN, examples: ['EUR'] },
  ).optional();

const commaList = (description: string, examples?: string[]) =>
  text(`${description} A comma list: any of its values matches.`, { examples }).optional();

const pageNumber = () => integer('Page number, from 1', { minimum: 1, default: 1 }).optional();

const CREDIT = 'Costs 1 credit when answered; a refused call costs none.';

function routeTool<P extends ToolRoute>(
  route: P,
  tool: Omit<PricingTool, 'call' | 'parameters'> & { parameters: ParameterShape<P> },
): PricingTool {
  const patterns = pathPatterns([route], tool.parameters);
  return { ...tool, call: (args) => restCall(route, patterns, args) };
}

/** The path parameters of a route, as its template names them. */
const pathParameterNames = (route: ToolRoute) =>
  [...route.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);

/** Each path parameter of the routes, to the pattern its tool publishes for it. */
function pathPatterns(
  routes: readonly ToolRoute[],
  parameters: Record<string, z.ZodType>,
): ReadonlyMap<string, RegExp> {
  const patterns = new Map<string, RegExp>();
  for (const route of routes) {
    for (const name of pathParameterNames(route)) {
      const { pattern } = z.toJSONSchema(parameters[name]!) as { pattern?: string };
      // Without one, any value would go into the path: a tool declared so is not served at all.
      if (!pattern) throw new Error(`${route}: the tool publishes no pattern for ${name}`);
      patterns.set(name, new RegExp(pattern));
    }
  }
  return patterns;
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
  const pathNames = new Set(pathParameterNames(route));
  const path: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined) continue;
    if (!pathNames.has(name)) {
      query[name] = value;
      continue;
    }
    const pattern = patterns.get(name)!;
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

const filesParameters = {
  slug: text(
    'The full company slug (acmechat.io), the company slug without its domain extension ' +
      '(acmechat), or a composite page slug (bytewatch.enterprise). A company slug gives the ' +
      'files of all its pages, a composite slug those of one page.',
    { pattern: SLUG_PATTERN, examples: ['acmechat.io'] },
  ),
  version: text('YYYYMMDD, a real calendar date; not with period', {
    pattern: DATE_PATTERN,
    examples: ['20250104'],
  }).optional(),
  period: text(
    'A version YYYYMMDD, a quarter YYYYQ#, a month YYYYM## or YYYY##, or a week YYYYW## ' +
      '(ISO 8601); not with version',
    { pattern: PERIOD_PATTERN, examples: ['2025Q1'] },
  ).optional(),
} satisfies ParameterShape<typeof FILES_BY_VERSION> & ParameterShape<typeof FILES_BY_PERIOD>;

const filesPathPatterns = pathPatterns([FILES_BY_VERSION, FILES_BY_PERIOD], filesParameters);

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
      return restCall(FILES_BY_VERSION, filesPathPatterns, { slug, version });
    }
    if (period !== undefined) return restCall(FILES_BY_PERIOD, filesPathPatterns, { slug, period });
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
    parameters: {
      search: text('Case-insensitive substring of the name or the slug', {
        maxLength: 200,
        examples: ['chat'],
      }).optional(),
      category: text(`One of the eight categories, in any case: ${CATEGORY_NAMES}`, {
        examples: ['communication'],
      }).optional(),
      employees: text('An exact size band, N+ or N-M', {
        pattern: VALUE_PATTERNS.employees,
        examples: ['51-200', '1000+'],
      }).optional(),
      sort: text(
        'field, -field, field:asc or field:desc with field one of name, slug, category, ' +
          'employees, created_at, updated_at. employees sorts bands by their lower bound.',
        {
          pattern:
            '^(-?(name|slug|category|employees|created_at|updated_at)|(name|slug|category|employees|created_at|updated_at):(asc|desc))$',
          default: 'name:asc',
          examples: ['-employees'],
        },
      ).optional(),
      page: pageNumber(),
      limit: integer('Companies per page', { minimum: 1, maximum: 100, default: 20 }).optional(),
    },
  }),
  routeTool('/v1/api/companies/{slug}', {
    name: 'get_company',
    title: 'One company',
    description:
      'One company by its slug (GET /v1/api/companies/{slug}), with updated_at, and with its ' +
      'pricing pages (composite slugs) when include is pages. An unknown slug is 404 with a ' +
      'suggestion of the closest slug. ' +
      CREDIT,
    parameters: {
      slug: text('The full company slug, with its domain extension', {
        pattern: SLUG_PATTERN,
        examples: ['acmechat.io'],
      }),
      include: text('pages: add the pricing page references of the company', {
        enum: ['pages'],
      }).optional(),
    },
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
    parameters: {
      slug: pageSlug(),
      version: text('YYYYMMDD: the extraction of that scrape version', {
        pattern: DATE_PATTERN,
        examples: ['20250104'],
      }).optional(),
      period: text(
        'A quarter YYYYQ#, a week YYYYW##, a month YYYYM## or YYYY## (or a version YYYYMMDD): ' +
          'the earliest extraction within it',
        { pattern: PERIOD_PATTERN, examples: ['2025Q1'] },
      ).optional(),
      as_of: text(
        'A calendar date YYYYMMDD: the latest extraction on or before it (the pricing as it ' +
          'stood that day)',
        { pattern: DATE_PATTERN, examples: ['20250201'] },
      ).optional(),
      currency: currency(),
    },
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
    parameters: {
      slug: pageSlug(),
      from: text('YYYYMMDD: a version with an extraction, the one compared from', {
        pattern: DATE_PATTERN,
        examples: ['20250104'],
      }),
      to: text('YYYYMMDD: a version with an extraction, the one compared to; default the latest', {
        pattern: DATE_PATTERN,
        examples: ['20260307'],
      }).optional(),
    },
  }),
  routeTool('/v1/api/changes', {
    name: 'list_changes',
    title: 'Feed of pricing changes',
    description:
      'Pricing changes across all companies, oldest first (GET /v1/api/changes): each ' +
      "extraction's changes from the page's previous version (plan_added, price_increased, " +
      '...). Without since, from the beginning; pass the next_cursor of an answer as since to ' +
      'read on (an empty page still has a next_cursor to poll with). ' +
      CREDIT,
    parameters: {
      since: text('A next_cursor from an earlier answer (opaque)', {
        pattern: '^[A-Za-z0-9_-]+$',
      }).optional(),
      limit: integer('Changes per page', { minimum: 1, maximum: 500, default: 100 }).optional(),
      company: text('Only the changes of this company (its full slug)', {
        pattern: SLUG_PATTERN,
        examples: ['acmechat.io'],
      }).optional(),
      event_type: text('Only changes of this type', {
        enum: PRICING_CHANGE_TYPES,
      }).optional(),
    },
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
    parameters: {
      category: commaList(`Categories of the company, in any case: ${CATEGORY_NAMES}.`, [
        'communication',
      ]),
      employees: commaList('Exact size bands of the company, N+ or N-M.', ['51-200']),
      company: commaList('Full company slugs.', ['acmechat.io']),
      discount_category: commaList('The plan has a discount of this category, such as annual.'),
      add_on: text('true: add-on plans only; false: the others', {
        enum: ['true', 'false'],
      }).optional(),
      free_tier: text('true: plans with a charge billed freemium or priced 0; false: the others', {
        enum: ['true', 'false'],
      }).optional(),
      billing: commaList(
        'Billing of a charge, such as monthly_recurring_billed_monthly, ' +
          'monthly_recurring_billed_yearly, annual_recurring_billed_yearly.',
      ),
      charge_type: commaList('charge_type of a charge, such as per_unit or flat.'),
      modality: commaList("Modality of a charge's pricing metric, such as user_based."),
      usage_type: commaList('usage_type of a charge, such as licensed.'),
      price_currency: commaList("A charge's own currency (ISO 4217, any case), such as USD."),
      min_monthly: decimal(
        "A charge's monthly equivalent is at least this (in currency when given, else in the " +
          "charge's own currency)",
        { minimum: 0 },
      ).optional(),
      max_monthly: decimal("A charge's monthly equivalent is at most this, as min_monthly", {
        minimum: 0,
      }).optional(),
      min_plans: integer('The page has at least this many plans', {
        minimum: 0,
        maximum: 100,
      }).optional(),
      max_plans: integer('The page has at most this many plans', {
        minimum: 0,
        maximum: 100,
      }).optional(),
      currency: text(
        'Convert into this currency (three letters, any case) each charge at the rate of the ' +
          'latest date on or before its version: min_monthly, max_monthly and the monthly sort ' +
          'compare converted figures, and each charge carries converted (null without a rate)',
        { pattern: CURRENCY_PATTERN, examples: ['EUR'] },
      ).optional(),
      sort: text(
        "company (the company's name), monthly (the plan's lowest monthly equivalent), either " +
          'as -field or field:desc for descending',
        {
          pattern: '^(-?(company|monthly)|(company|monthly):(asc|desc))$',
          default: 'company',
          examples: ['-monthly'],
        },
      ).optional(),
      page: pageNumber(),
      limit: integer('Plans per page', { minimum: 1, maximum: 100, default: 20 }).optional(),
    },
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
    parameters: {
      slug: pageSlug(),
      from: text("YYYYMMDD; default the page's first extraction", {
        pattern: DATE_PATTERN,
        examples: ['20250104'],
      }).optional(),
      to: text('YYYYMMDD; default today (UTC)', {
        pattern: DATE_PATTERN,
        examples: ['20260307'],
      }).optional(),
      step: text('The step between points; default month', {
        enum: SERIES_STEPS,
        default: 'month',
      }).optional(),
      currency: currency(),
    },
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
    parameters: {
      category: commaList(`Categories of the pages' companies, any case: ${CATEGORY_NAMES}.`, [
        'communication',
      ]),
      employees: commaList("Size bands of the pages' companies, N+ or N-M.", ['51-200']),
      billing: commaList('Count only charges of these billings.', [
        'monthly_recurring_billed_monthly',
      ]),
      modality: commaList('Count only charges whose pricing metric has one of these modalities.', [
        'user_based',
      ]),
      currency: text(
        'Convert every charge into this currency (three letters, any case) before the lowest ' +
          'is taken: one group, and unconverted counts the pages left out for want of a rate',
        { pattern: CURRENCY_PATTERN, examples: ['USD'] },
      ).optional(),
      as_of: text('YYYYMMDD: the extractions in force that day; default today (UTC)', {
        pattern: DATE_PATTERN,
        examples: ['20260307'],
      }).optional(),
      company: text("A company slug: each of its pages' entry price and percentile rank", {
        examples: ['acmechat.io'],
      }).optional(),
    },
  }),
  getFiles,
];
