import type { ApiParamOptions } from '@nestjs/swagger';
import { PATTERNS } from './patterns.js';

/** Path parameters shared by several routes. */

const SLUG_FORMS =
  'The full company slug (notion.so), the company slug without its domain extension (notion), ' +
  'or a composite page slug (notion.enterprise). An exact company slug wins over a composite ' +
  'reading.';

/** `{slug}` of pages and pricing: one page. */
export const PAGE_SLUG_PARAMETER: ApiParamOptions = {
  name: 'slug',
  description:
    `${SLUG_FORMS} A company slug means its primary page, or its only page; with several ` +
    'pages and no primary one the answer is 400 PAGE_REQUIRED, listing the composite slugs.',
  schema: { type: 'string', pattern: PATTERNS.companySlug },
  example: 'notion',
};

/** `{slug}` of files: a company slug gives the files of all its pages. */
export const FILES_SLUG_PARAMETER: ApiParamOptions = {
  name: 'slug',
  description: `${SLUG_FORMS} A company slug gives the files of all its pages, a composite slug those of one page.`,
  schema: { type: 'string', pattern: PATTERNS.companySlug },
  example: 'notion.so',
};

export function timeParameter(
  name: string,
  pattern: string,
  description: string,
  example: string,
): ApiParamOptions {
  return { name, description, schema: { type: 'string', pattern }, example };
}
