import { CATEGORIES } from '#app/domain';
import type { ErrorExample } from './decorators.js';

/** Error examples of refusals more than one feature gives. */

/** An as_of that is no calendar date: the 400 of every route that takes one. */
export const AS_OF_EXAMPLE: ErrorExample = {
  summary: 'as_of not a calendar date',
  message: 'as_of must be a real date in YYYYMMDD form',
  code: 'INVALID_DATE',
  details: { parameter: 'as_of', provided: '20250230' },
};

/** A currency that is no three-letter code: the 400 of every route that converts. */
export const INVALID_CURRENCY_EXAMPLE: ErrorExample = {
  summary: 'currency not a three-letter code',
  message: 'currency must be a three-letter ISO 4217 code, such as EUR',
  code: 'INVALID_CURRENCY',
  details: { parameter: 'currency', provided: 'EURO' },
};

/** A range whose start is after its end: the 400 of every series. */
export const INVALID_RANGE_EXAMPLE: ErrorExample = {
  summary: 'from after to',
  message: 'from (20250301) is after to (20250101)',
  code: 'INVALID_RANGE',
  details: { provided: { from: '20250301', to: '20250101' } },
};

/** A category the catalogue does not have (INVALID_PARAMETER where the shape has a code). */
export const UNKNOWN_CATEGORY_EXAMPLE: ErrorExample = {
  summary: 'Unknown category',
  message: 'Unknown category: Gardening',
  code: 'INVALID_PARAMETER',
  details: { parameter: 'category', provided: 'Gardening', valid_values: [...CATEGORIES] },
};

/** A company slug where one page is needed, and the company has several and no primary one. */
export const PAGE_REQUIRED_EXAMPLE: ErrorExample = {
  summary: 'A company with several pages and no primary one',
  message: 'duo.io has several pricing pages and no primary one: name one',
  code: 'PAGE_REQUIRED',
  details: { pages: ['duo.a-team', 'duo.b-team'] },
};
