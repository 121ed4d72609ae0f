/**
 * Time parameters of the files and pricing endpoints (docs/API.md, "Time formats"):
 * version YYYYMMDD, quarter YYYYQ#, month YYYYM## or YYYY##, ISO 8601 week YYYYW##.
 *
 * Plain UTC `Date` arithmetic only: no date library, no local time.
 */

export type PeriodFormat = 'version' | 'quarter' | 'month' | 'week';

export type PeriodErrorCode =
  | 'INVALID_VERSION'
  | 'INVALID_QUARTER'
  | 'INVALID_MONTH'
  | 'INVALID_WEEK'
  | 'INVALID_PERIOD_FORMAT';

/** A closed range of days; `start` and `end` are YYYYMMDD, both inclusive. A version has start = end. */
export interface Period {
  format: PeriodFormat;
  start: string;
  end: string;
}

export type PeriodResult =
  { ok: true; period: Period } | { ok: false; code: PeriodErrorCode; message: string };

/** One example of each format, for `details.examples` of INVALID_PERIOD_FORMAT. */
export const PERIOD_EXAMPLES: Record<PeriodFormat, string> = Object.freeze({
  version: '20251016',
  quarter: '2025Q4',
  week: '2025W42',
  month: '2025M12',
});

const MIN_YEAR = 1000;
const MAX_YEAR = 9999;
const DAY_MS = 86_400_000;

const VERSION_SHAPE = /^(\d{4})(\d{2})(\d{2})$/;
const QUARTER_SHAPE = /^(\d{4})[Qq](\d)$/;
const MONTH_LETTER_SHAPE = /^(\d{4})[Mm](\d{1,2})$/;
const MONTH_DIGITS_SHAPE = /^(\d{4})(\d{2})$/;
const WEEK_SHAPE = /^(\d{4})[Ww](\d{1,2})$/;
/** What the unified endpoint reads as "meant a quarter, week or month": 4 digits, the letter, digits. */
const LETTER_FORM = /^\d{4}([QqWwMm])\d+$/;

const YEAR_RANGE = `year must be ${MIN_YEAR} to ${MAX_YEAR}`;
const MESSAGES = {
  version: 'version must be a real date in YYYYMMDD form',
  versionYear: `version must be a real date in YYYYMMDD form (${YEAR_RANGE})`,
  quarterShape: 'quarter must have the form YYYYQ# (for example 2025Q4)',
  quarterRange: 'quarter must be 1 to 4',
  quarterYear: `quarter ${YEAR_RANGE}`,
  monthShape: 'month must have the form YYYYM## or YYYY## (for example 2025M12 or 202512)',
  monthRange: 'month must be 1 to 12',
  monthYear: `month ${YEAR_RANGE}`,
  weekShape: 'week must have the form YYYYW## (for example 2025W42)',
  weekRange: 'week must be 1 to 53',
  weekYear: `week ${YEAR_RANGE}`,
  format: 'period matches no format: use YYYYMMDD, YYYYQ#, YYYYW## or YYYYM##/YYYY##',
} as const;

/** The UTC midnight of a calendar day; `month` is 1-based. Safe for years below 100 too. */
function utcDay(year: number, month: number, day: number): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date;
}

function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

function ymd(date: Date): string {
  return pad(date.getUTCFullYear(), 4) + pad(date.getUTCMonth() + 1, 2) + pad(date.getUTCDate(), 2);
}

function inYearRange(year: number): boolean {
  return year >= MIN_YEAR && year <= MAX_YEAR;
}

function ok(format: PeriodFormat, start: Date, end: Date): PeriodResult {
  return { ok: true, period: { format, start: ymd(start), end: ymd(end) } };
}

function fail(code: PeriodErrorCode, message: string): PeriodResult {
  return { ok: false, code, message };
}

/** The Monday of ISO week 1: the week that holds 4 January (equivalently, the first Thursday). */
function isoWeekOneMonday(isoYear: number): Date {
  const january4 = utcDay(isoYear, 1, 4);
  const daysSinceMonday = (january4.getUTCDay() + 6) % 7;
  return addDays(january4, -daysSinceMonday);
}

/**
 * How many ISO 8601 weeks the ISO year has: 53 when 1 January is a Thursday, or a Wednesday
 * in a leap year; otherwise 52.
 */
export function latestIsoWeek(isoYear: number): 52 | 53 {
  if (!Number.isSafeInteger(isoYear)) {
    throw new RangeError(`ISO year must be an integer, got ${isoYear}`);
  }
  const weeks = Math.round(
    (isoWeekOneMonday(isoYear + 1).getTime() - isoWeekOneMonday(isoYear).getTime()) / (7 * DAY_MS),
  );
  return weeks === 53 ? 53 : 52;
}

/** YYYYMMDD naming a real calendar date (year 1000 to 9999); start = end = that day. */
export function parseVersion(input: string): PeriodResult {
  const match = typeof input === 'string' ? VERSION_SHAPE.exec(input) : null;
  if (!match) return fail('INVALID_VERSION', MESSAGES.version);
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (!inYearRange(year)) return fail('INVALID_VERSION', MESSAGES.versionYear);
  const date = utcDay(year, month, day);
  if (
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day
  ) {
    return fail(
      'INVALID_VERSION',
      `${MESSAGES.version} (${match[1]}-${match[2]}-${match[3]} does not exist)`,
    );
  }
  return ok('version', date, date);
}

/** YYYYQ# (Q in either case), # from 1 to 4: Q1 January to March ... Q4 October to December. */
export function parseQuarter(input: string): PeriodResult {
  const match = typeof input === 'string' ? QUARTER_SHAPE.exec(input) : null;
  if (!match) return fail('INVALID_QUARTER', MESSAGES.quarterShape);
  const [year, quarter] = [Number(match[1]), Number(match[2])];
  if (!inYearRange(year)) return fail('INVALID_QUARTER', MESSAGES.quarterYear);
  if (quarter < 1 || quarter > 4) return fail('INVALID_QUARTER', MESSAGES.quarterRange);
  const firstMonth = (quarter - 1) * 3 + 1;
  return ok('quarter', utcDay(year, firstMonth, 1), utcDay(year, firstMonth + 3, 0));
}

/** YYYYM# / YYYYM## (M in either case) or exactly six digits YYYY##; month from 1 to 12. */
export function parseMonth(input: string): PeriodResult {
  const match =
    typeof input === 'string'
      ? (MONTH_LETTER_SHAPE.exec(input) ?? MONTH_DIGITS_SHAPE.exec(input))
      : null;
  if (!match) return fail('INVALID_MONTH', MESSAGES.monthShape);
  const [year, month] = [Number(match[1]), Number(match[2])];
  if (!inYearRange(year)) return fail('INVALID_MONTH', MESSAGES.monthYear);
  if (month < 1 || month > 12) return fail('INVALID_MONTH', MESSAGES.monthRange);
  return ok('month', utcDay(year, month, 1), utcDay(year, month + 1, 0));
}

/**
 * YYYYW# / YYYYW## (W in either case): ISO 8601 week of ISO year YYYY, Monday to Sunday.
 * Week 53 exists only in ISO years that have it (2020 yes, 2021 no). The range may start in
 * the previous calendar year (2025W01 is 20241230..20250105) or end in the next.
 */
export function parseWeek(input: string): PeriodResult {
  const match = typeof input === 'string' ? WEEK_SHAPE.exec(input) : null;
  if (!match) return fail('INVALID_WEEK', MESSAGES.weekShape);
  const [year, week] = [Number(match[1]), Number(match[2])];
  if (!inYearRange(year)) return fail('INVALID_WEEK', MESSAGES.weekYear);
  if (week < 1 || week > 53) return fail('INVALID_WEEK', MESSAGES.weekRange);
  const weeksInYear = latestIsoWeek(year);
  if (week > weeksInYear) {
    return fail('INVALID_WEEK', `${MESSAGES.weekRange} (${year} has ${weeksInYear} ISO weeks)`);
  }
  const monday = addDays(isoWeekOneMonday(year), (week - 1) * 7);
  return ok('week', monday, addDays(monday, 6));
}

/**
 * The unified endpoint: the format is read from the pattern. Eight digits is a version, six
 * digits a month; four digits, a letter Q, W or M (either case) and at least one digit is a
 * quarter, week or month. An input of one of these shapes whose value is wrong gets that
 * format's code (2025W54 INVALID_WEEK, 202513 INVALID_MONTH, 20250231 INVALID_VERSION,
 * 2025Q5 INVALID_QUARTER); anything else is INVALID_PERIOD_FORMAT. Never throws.
 */
export function parsePeriod(input: string): PeriodResult {
  if (typeof input !== 'string') return fail('INVALID_PERIOD_FORMAT', MESSAGES.format);
  if (/^\d{8}$/.test(input)) return parseVersion(input);
  if (/^\d{6}$/.test(input)) return parseMonth(input);
  const letter = LETTER_FORM.exec(input)?.[1]?.toUpperCase();
  switch (letter) {
    case 'Q':
      return parseQuarter(input);
    case 'W':
      return parseWeek(input);
    case 'M':
      return parseMonth(input);
    default:
      return fail('INVALID_PERIOD_FORMAT', MESSAGES.format);
  }
}

/**
 * Whether no more scrapes can fall in the period: its last day is before the UTC date of
 * `now`. A period that ends today or later is still open.
 */
export function isPeriodClosed(period: Period, now: Date): boolean {
  if (Number.isNaN(now.getTime())) throw new RangeError('now must be a valid Date');
  const today = now.getUTCFullYear() * 10_000 + (now.getUTCMonth() + 1) * 100 + now.getUTCDate();
  return Number(period.end) < today;
}
