import { COMPANY_SLUG, PAGE_SLUG } from '#app/domain';
import { COMPANY_SORT_COLUMNS, type CompanySortField } from '#app/persistence';

/**
 * Patterns the OpenAPI document states for parameters and fields. They describe the values the
 * service accepts as valid; a value outside them gets the route's documented 400 (or 404).
 */
const YEAR = '[1-9]\\d{3}';
const MONTH_NUMBER = '(0?[1-9]|1[0-2])';
const TWO_DIGIT_MONTH = '(0[1-9]|1[0-2])';
const WEEK_NUMBER = '(0?[1-9]|[1-4]\\d|5[0-3])';

export const PATTERNS = {
  /** YYYYMMDD; the service also checks that the date exists. */
  version: `^${YEAR}(0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])$`,
  quarter: `^${YEAR}[Qq][1-4]$`,
  month: `^${YEAR}([Mm]${MONTH_NUMBER}|${TWO_DIGIT_MONTH})$`,
  /** ISO 8601 week; week 53 exists only in ISO years that have it. */
  week: `^${YEAR}[Ww]${WEEK_NUMBER}$`,
  /** Any of the four formats, as the unified endpoint and the pricing `period` read them. */
  period: `^${YEAR}((0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])|[Qq][1-4]|[Mm]${MONTH_NUMBER}|${TWO_DIGIT_MONTH}|[Ww]${WEEK_NUMBER})$`,
  uuid: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
  companySlug: COMPANY_SLUG.source,
  pageSlug: PAGE_SLUG.source,
  employees: '^\\d+(\\+|-\\d+)$',
  currency: '^[A-Z]{3}$',
  identifier: '^[a-z][a-z0-9_]*$',
} as const;

/** The fields `sort` accepts, from the same table the query uses. */
export const SORT_FIELDS = Object.keys(COMPANY_SORT_COLUMNS) as CompanySortField[];

const SORT_ALTERNATIVES = SORT_FIELDS.join('|');
export const SORT_PATTERN = `^(-?(${SORT_ALTERNATIVES})|(${SORT_ALTERNATIVES}):(asc|desc))$`;
