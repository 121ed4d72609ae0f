import type { ApiParamOptions, ApiQueryOptions } from '@nestjs/swagger';
import { PAGE_SIZE } from '../http/query-parameters.js';
import { PATTERNS } from './patterns.js';

/**
 * Example values of the parameters, all from the demo catalogue that `npm start` loads
 * (apps/api/src/demo/demo-catalogue.ts): AcmeChat, whose one pricing page is scraped weekly and
 * extracted monthly from 20241116 on. Swagger UI's "Try it out" and contract testers (Dredd, in
 * test/contract.e2e.test.ts) send them as they are, so each names data that exists there.
 */
export const EXAMPLES = {
  companySlug: 'acmechat.io',
  /** The company slug without its domain extension: the company's primary page. */
  pageSlug: 'acmechat',
  /** A scrape version that also has a pricing extraction. */
  version: '20250104',
  /** A later extraction, with price changes since `version`. */
  laterVersion: '20260307',
  quarter: '2025Q1',
  month: '2025M01',
  week: '2025W01',
  period: '2025Q1',
} as const;

/**
 * A path parameter. Its example goes inside the schema because Nest drops a parameter's own
 * `example` when a schema is given; document.ts moves it back out to the parameter.
 */
export function pathParameter(
  name: string,
  description: string,
  pattern: string,
  example: string,
): ApiParamOptions {
  return { name, description, schema: { type: 'string', pattern, example } };
}

const SLUG_FORMS =
  'The full company slug (acmechat.io), the company slug without its domain extension ' +
  '(acmechat), or a composite page slug (bytewatch.enterprise). An exact company slug wins over ' +
  'a composite reading.';

/** `{slug}` of pages and pricing: one page. */
export const PAGE_SLUG_PARAMETER = pathParameter(
  'slug',
  `${SLUG_FORMS} A company slug means its primary page, or its only page; with several pages ` +
    'and no primary one the answer is 400, listing the composite slugs.',
  PATTERNS.companySlug,
  EXAMPLES.pageSlug,
);

/** `{slug}` of files: a company slug gives the files of all its pages. */
export const FILES_SLUG_PARAMETER = pathParameter(
  'slug',
  `${SLUG_FORMS} A company slug gives the files of all its pages, a composite slug those of one page.`,
  PATTERNS.companySlug,
  EXAMPLES.companySlug,
);

/** `{slug}` of one company: its full slug. */
export const COMPANY_SLUG_PARAMETER = pathParameter(
  'slug',
  'The full company slug, with its domain extension',
  PATTERNS.companySlug,
  EXAMPLES.companySlug,
);

/**
 * `{id}` of a key or a webhook. The service assigns ids, so the example cannot name one that
 * exists; the contract test sends the id its own earlier request created instead.
 */
export function idParameter(description: string, example: string): ApiParamOptions {
  return pathParameter('id', description, PATTERNS.uuid, example);
}

/**
 * `currency=` of the routes that convert (pricing, series, plans, benchmarks, export). No
 * example here: the pricing route's would be sent with version's (Dredd sends every example),
 * and a converted answer has no ETag. The other routes add one.
 */
export const CURRENCY_PARAMETER = {
  name: 'currency',
  required: false,
  type: String,
  pattern: PATTERNS.currencyParameter,
  description:
    "Convert each charge's monthly equivalent into this currency (three letters, any case) " +
    'at the exchange rate of the latest date on or before its version: each charge then ' +
    'carries converted (null without a rate)',
} satisfies ApiQueryOptions;

/** `limit` of a paged list, documented with the bounds pageParameters applies. */
export function limitQuery(items: string): ApiQueryOptions {
  return {
    name: 'limit',
    required: false,
    type: 'integer',
    minimum: PAGE_SIZE.min,
    maximum: PAGE_SIZE.max,
    default: PAGE_SIZE.fallback,
    description: `${items} per page`,
  };
}

/** `page` of a paged list. */
export const PAGE_NUMBER_QUERY: ApiQueryOptions = {
  name: 'page',
  required: false,
  type: 'integer',
  minimum: 1,
  default: 1,
  description: 'Page number, from 1',
};
