/**
 * The patterns of the values the API takes in paths, queries and fields, as its OpenAPI document
 * states them and its MCP tools publish them. A value outside one gets the route's documented
 * 400 (or 404).
 */
const YEAR = '[1-9]\\d{3}';
const MONTH_NUMBER = '(0?[1-9]|1[0-2])';
const TWO_DIGIT_MONTH = '(0[1-9]|1[0-2])';
const WEEK_NUMBER = '(0?[1-9]|[1-4]\\d|5[0-3])';

export const VALUE_PATTERNS = {
  /** YYYYMMDD; the service also checks that the date exists. */
  version: `^${YEAR}(0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])$`,
  quarter: `^${YEAR}[Qq][1-4]$`,
  month: `^${YEAR}([Mm]${MONTH_NUMBER}|${TWO_DIGIT_MONTH})$`,
  /** ISO 8601 week; week 53 exists only in ISO years that have it. */
  week: `^${YEAR}[Ww]${WEEK_NUMBER}$`,
  /** Any of the four formats, as the unified endpoint and the pricing `period` read them. */
  period: `^${YEAR}((0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])|[Qq][1-4]|[Mm]${MONTH_NUMBER}|${TWO_DIGIT_MONTH}|[Ww]${WEEK_NUMBER})$`,
  /** An employee band: N+ or N-M. */
  employees: '^\\d+(\\+|-\\d+)$',
  /** A currency as answered: ISO 4217, upper-case. */
  currency: '^[A-Z]{3}$',
  /** A currency as asked for: three letters in any case. */
  currencyParameter: '^[A-Za-z]{3}$',
} as const;
