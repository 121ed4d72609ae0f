import type { ApiParamOptions } from '@nestjs/swagger';
import { PATTERNS } from './patterns.js';

/**
 * Example values of the parameters, all from the demo catalogue that `npm start` loads
 * (apps/api/src/demo/demo-catalogue.ts): AcmeChat, whose one pricing page is scraped weekly and
 * extracted monthly from 20241116 on, and Hubbly to compare it with. Swagger UI's "Try it out"
 * and contract testers (Dredd, in test/contract.e2e.test.ts) send them as they are, so each
 * names data that exists there.
 */
export const EXAMPLES = {
  companySlug: 'acmechat.io',
  /** The company slug without its domain extension: the company's primary page. */
  pageSlug: 'acmechat',
  /** A scrape version that also has a pricing extraction. */
  version: '20250104',
  /** A later extraction, with price changes since `version`. */
  laterVersion: '20260307',
  /** A second company, which the compare route's example sets beside AcmeChat. */
  otherCompanySlug: 'hubbly.com',
  /** Two pages compared: AcmeChat's and Hubbly's (each company's only page). */
  comparedSlugs: 'acmechat,hubbly',
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
