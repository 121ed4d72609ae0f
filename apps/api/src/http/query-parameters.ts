import {
  CATEGORIES,
  categoryNamed,
  ChargeInput,
  CompanyRecord,
  COMPANY_SLUG,
  maxLengthOf,
  PageRecord,
  employeeBandLowerBound,
  isValidVersion,
  OPEN_IDENTIFIER,
  parsePeriod,
  parseVersion,
  type Period,
  PRICING_CHANGE_TYPES,
  type PricingChangeType,
  VALUE_PATTERNS,
} from '#app/domain';
import { decodeCursor, START_OF_FEED, type FeedPosition } from '#app/persistence';
import { ApiError } from '../errors/api-error.js';
import { PATTERNS } from '../openapi/patterns.js';
import { periodOrThrow } from './period-parameter.js';
import {
  QueryParameter,
  type QueryParameterDecorator,
  type QueryValue,
} from './query-declaration.js';

/*
 * The kinds of query parameter: each a decorator for a property of a route's query class
 * (query-declaration.ts), naming what the document says of the parameter and the check that
 * reads it, one of the functions below. A check gives the typed value, or throws the
 * parameter's 400 with its code and details.
 */

function single(name: string, value: QueryValue): string | undefined {
  if (Array.isArray(value)) {
    throw new ApiError(400, 'INVALID_PARAMETER', `${name} may be given only once`, {
      parameter: name,
      provided: value,
      expected: 'a single value',
    });
  }
  return value;
}

export function integerParameter(
  name: string,
  value: QueryValue,
  { fallback, min, max }: { fallback: number; min: number; max?: number },
): number {
  const text = single(name, value);
  if (text === undefined) return fallback;
  const number = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(number) || number < min || (max !== undefined && number > max)) {
    const expected =
      max === undefined ? `an integer >= ${min}` : `an integer from ${min} to ${max}`;
    throw new ApiError(400, 'INVALID_PARAMETER', `${name} must be ${expected}`, {
      parameter: name,
      provided: text,
      expected,
      ...(max === undefined ? {} : { max }),
    });
  }
  return number;
}

/** An integer parameter without a default: undefined when absent. */
function optionalIntegerParameter(
  name: string,
  value: QueryValue,
  bounds: { min: number; max?: number },
): number | undefined {
  return single(name, value) === undefined
    ? undefined
    : integerParameter(name, value, { fallback: bounds.min, ...bounds });
}

/** `true` or `false`; undefined when absent. */
function booleanParameter(name: string, value: QueryValue): boolean | undefined {
  const text = optionalText(name, value, 20);
  if (text === undefined) return undefined;
  if (text !== 'true' && text !== 'false') {
    throw new ApiError(400, 'INVALID_PARAMETER', `${name} must be true or false`, {
      parameter: name,
      provided: text,
      expected: 'true or false',
    });
  }
  return text === 'true';
}

/** A decimal number >= 0 (`12`, `9.99`); undefined when absent. */
function amountParameter(name: string, value: QueryValue): number | undefined {
  const text = optionalText(name, value, 40);
  if (text === undefined) return undefined;
  const number = /^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
  if (!Number.isFinite(number)) {
    throw new ApiError(400, 'INVALID_PARAMETER', `${name} must be a decimal number >= 0`, {
      parameter: name,
      provided: text,
      expected: 'a decimal number >= 0, such as 9.99',
    });
  }
  return number;
}

export function optionalText(name: string, value: QueryValue, maxLength = 200): string | undefined {
  const text = single(name, value);
  if (text === undefined || text === '') return undefined;
  // No record may hold one, and PostgreSQL refuses it in a query parameter (a 500).
  if (text.includes('\0')) {
    throw new ApiError(400, 'INVALID_PARAMETER', `${name} must not contain the NUL character`, {
      parameter: name,
      provided: text.slice(0, maxLength),
      expected: 'text without the NUL character',
    });
  }
  if (text.length > maxLength) {
    throw new ApiError(400, 'INVALID_PARAMETER', `${name} is longer than ${maxLength} characters`, {
      parameter: name,
      provided: text.slice(0, maxLength),
      max: maxLength,
    });
  }
  return text;
}

/**
 * One of the eight categories, matched case-insensitively, in its canonical spelling; else a
 * 400 with `code` (the companies list and the analytics routes name the refusal differently).
 */
function canonicalCategory(name: string, text: string, code: string): string {
  const category = categoryNamed(text);
  if (!category) {
    throw new ApiError(400, code, `Unknown ${name}: ${text}`, {
      parameter: name,
      provided: text,
      valid_values: [...CATEGORIES],
    });
  }
  return category;
}

/** One category, in any case, given in canonical spelling; else 400 INVALID_CATEGORY. */
function categoryParameter(name: string, value: QueryValue): string | undefined {
  const text = optionalText(name, value);
  return text === undefined ? undefined : canonicalCategory(name, text, 'INVALID_CATEGORY');
}

/** The longest company slug and open-vocabulary value a record may hold. */
export const COMPANY_SLUG_LENGTH = maxLengthOf(CompanyRecord, 'slug');
const IDENTIFIER_LENGTH = maxLengthOf(ChargeInput, 'billing');

/** A full company slug such as notion.so. */
function companySlugOf(name: string, text: string): string {
  if (!COMPANY_SLUG.test(text) || text.length > COMPANY_SLUG_LENGTH) {
    throw new ApiError(400, 'INVALID_PARAMETER', `${name} is not a company slug: ${text}`, {
      parameter: name,
      provided: text,
      expected: 'a company slug such as notion.so',
    });
  }
  return text;
}

function companyParameter(name: string, value: QueryValue): string | undefined {
  const text = optionalText(name, value, COMPANY_SLUG_LENGTH);
  return text === undefined ? undefined : companySlugOf(name, text);
}

/** One of the pricing change types of the fixed list (docs/API.md, "PricingChange"). */
function eventTypeParameter(name: string, value: QueryValue): PricingChangeType | undefined {
  const text = optionalText(name, value, 100);
  if (text !== undefined && !PRICING_CHANGE_TYPES.includes(text as PricingChangeType)) {
    throw new ApiError(400, 'INVALID_EVENT_TYPE', `Unknown ${name}: ${text}`, {
      parameter: name,
      provided: text,
      valid_values: [...PRICING_CHANGE_TYPES],
    });
  }
  return text as PricingChangeType | undefined;
}

function employeesParameter(name: string, value: QueryValue): string | undefined {
  const text = optionalText(name, value);
  if (text === undefined) return undefined;
  if (employeeBandLowerBound(text) === null) {
    throw new ApiError(
      400,
      'INVALID_EMPLOYEES',
      `${name} must be a size band such as 1000+ or 51-200`,
      {
        parameter: name,
        provided: text,
        expected: 'N+ or N-M (encode + as %2B)',
      },
    );
  }
  return text;
}

const SORT = /^(-)?([a-z_]+)(?::(asc|desc))?$/;

/** An order of a list: the field it sorts by, and its direction. */
export interface SortOrder<F extends string> {
  sort: F;
  descending: boolean;
}

/** `field`, `-field`, `field:asc` or `field:desc` with field one of `fields`; undefined when absent. */
function sortParameter<F extends string>(
  name: string,
  value: QueryValue,
  fields: readonly F[],
): SortOrder<F> | undefined {
  const text = single(name, value);
  if (text === undefined || text === '') return undefined;
  const match = SORT.exec(text);
  const field = match?.[2] as F | undefined;
  if (!match || !field || !fields.includes(field) || (match[1] && match[3])) {
    throw new ApiError(400, 'INVALID_PARAMETER', `Invalid ${name}: ${text}`, {
      parameter: name,
      provided: text,
      expected: `field, -field, field:asc or field:desc with field one of ${fields.join(', ')}`,
    });
  }
  return { sort: field, descending: match[1] === '-' || match[3] === 'desc' };
}

const CURRENCY_PARAMETER = new RegExp(VALUE_PATTERNS.currencyParameter);

/** Three letters, any case, answered upper-case; else 400 INVALID_CURRENCY. */
function currencyCodeOf(name: string, text: string): string {
  if (!CURRENCY_PARAMETER.test(text)) {
    throw new ApiError(
      400,
      'INVALID_CURRENCY',
      `${name} must be a three-letter ISO 4217 code, such as EUR`,
      { parameter: name, provided: text },
    );
  }
  return text.toUpperCase();
}

/** A currency to convert into. */
function currencyParameter(name: string, value: QueryValue): string | undefined {
  const text = optionalText(name, value, 20);
  return text === undefined ? undefined : currencyCodeOf(name, text);
}

/** A comma list (`a,b`): its items, empty ones dropped; undefined when absent or empty. */
function listParameter(name: string, value: QueryValue, maxLength = 1000): string[] | undefined {
  const text = optionalText(name, value, maxLength);
  const items = text
    ?.split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return items && items.length > 0 ? items : undefined;
}

/** A comma list of categories, each in any case, given in canonical spelling; else 400. */
function categoriesParameter(name: string, value: QueryValue): string[] | undefined {
  return listParameter(name, value)?.map((text) =>
    canonicalCategory(name, text, 'INVALID_PARAMETER'),
  );
}

/** A comma list of size bands (`1000+`, `51-200`); else 400. */
function employeeBandsParameter(name: string, value: QueryValue): string[] | undefined {
  const bands = listParameter(name, value);
  for (const band of bands ?? []) {
    if (employeeBandLowerBound(band) === null) {
      throw new ApiError(400, 'INVALID_PARAMETER', `${name}: ${band} is no size band`, {
        parameter: name,
        provided: band,
        expected: 'size bands such as 1000+ or 51-200, comma-separated (encode + as %2B)',
      });
    }
  }
  return bands;
}

/** The longest slug of a page: a company slug's base, a dot and the page's sub-slug. */
const PAGE_SLUG_LENGTH = COMPANY_SLUG_LENGTH + 1 + maxLengthOf(PageRecord, 'page_slug');

/** The longest comma list of `max` slugs. */
const slugListLength = (max: number) => max * (PAGE_SLUG_LENGTH + 1);

/** How many items a list parameter takes. */
interface ItemCount {
  min: number;
  max: number;
}

/**
 * A comma list of `min` to `max` slugs, each in any form a `{slug}` path parameter takes (what
 * each names is the route's to look up); else 400.
 */
function slugsParameter(name: string, value: QueryValue, { min, max }: ItemCount): string[] {
  const slugs = listParameter(name, value, slugListLength(max)) ?? [];
  if (slugs.length < min || slugs.length > max) {
    throw new ApiError(
      400,
      'INVALID_PARAMETER',
      `${name} must name from ${min} to ${max} pages, comma-separated`,
      {
        parameter: name,
        provided: single(name, value) ?? null,
        expected: `from ${min} to ${max} slugs, comma-separated`,
      },
    );
  }
  return slugs;
}

/** A comma list of full company slugs; else 400. */
function companiesParameter(name: string, value: QueryValue): string[] | undefined {
  return listParameter(name, value)?.map((text) => companySlugOf(name, text));
}

/** A comma list of values of an open vocabulary (billing, modality...): lower-case identifiers. */
function identifiersParameter(name: string, value: QueryValue): string[] | undefined {
  return listParameter(name, value)?.map((item) => {
    if (!OPEN_IDENTIFIER.test(item) || item.length > IDENTIFIER_LENGTH) {
      throw new ApiError(400, 'INVALID_PARAMETER', `${name}: ${item} is no lower-case identifier`, {
        parameter: name,
        provided: item,
        expected: 'lower-case identifiers (a-z, 0-9, _), comma-separated',
      });
    }
    return item;
  });
}

/** A comma list of currency codes, each in any case; else 400 INVALID_CURRENCY. */
function currenciesParameter(name: string, value: QueryValue): string[] | undefined {
  return listParameter(name, value)?.map((item) => currencyCodeOf(name, item));
}

/**
 * `since=`: a change feed position (the change feed's and the export's), the start of the feed
 * when absent; a cursor this service did not hand out is 400 INVALID_CURSOR with `message`.
 */
function feedCursorParameter(name: string, value: QueryValue, message: string): FeedPosition {
  const since = optionalText(name, value, 100);
  const after = since === undefined ? START_OF_FEED : decodeCursor(since);
  if (!after) {
    throw new ApiError(400, 'INVALID_CURSOR', message, { parameter: name, provided: since });
  }
  return after;
}

/** A date parameter (`as_of`...) as it was given, once it names a calendar day; else 400. */
function calendarDateParameter(
  name: string,
  value: QueryValue,
  required: boolean,
): string | undefined {
  const text = optionalText(name, value, 20);
  if (text === undefined && required) {
    throw new ApiError(400, 'INVALID_PARAMETER', `${name} is required: a date YYYYMMDD`, {
      parameter: name,
      provided: null,
      expected: 'a date YYYYMMDD',
    });
  }
  if (text === undefined || isValidVersion(text)) return text;
  throw new ApiError(400, 'INVALID_DATE', `${name} must be a real date in YYYYMMDD form`, {
    parameter: name,
    provided: text,
  });
}

/** A scrape version YYYYMMDD as it was given; else its 400 (parseVersion's codes). */
function versionParameter(name: string, value: QueryValue, required: boolean): string | undefined {
  const text = optionalText(name, value, 20);
  if (text === undefined && required) {
    throw new ApiError(400, 'INVALID_PARAMETER', `${name} is required: a version YYYYMMDD`, {
      parameter: name,
      provided: null,
      expected: 'a version YYYYMMDD',
    });
  }
  if (text !== undefined) periodOrThrow(parseVersion(text), text);
  return text;
}

/** A version or period as it was given, and the period it names. */
export interface GivenPeriod {
  text: string;
  period: Period;
}

/** A version or period, and the period it names; else its 400 (parsePeriod's codes). */
function periodParameter(name: string, value: QueryValue): GivenPeriod | undefined {
  const text = optionalText(name, value, 20);
  return text === undefined ? undefined : { text, period: periodOrThrow(parsePeriod(text), text) };
}

/** One of `values`, else 400; `fallback` when absent. */
function oneOfParameter<T extends string>(
  name: string,
  value: QueryValue,
  values: readonly T[],
  fallback: T | undefined,
): T | undefined {
  const text = optionalText(name, value, 20);
  if (text === undefined) return fallback;
  if (!values.includes(text as T)) {
    throw new ApiError(400, 'INVALID_PARAMETER', `${name} must be one of ${values.join(', ')}`, {
      parameter: name,
      provided: text,
      valid_values: [...values],
    });
  }
  return text as T;
}

// The kinds, each documented with its own schema (type, pattern, bounds) and what the
// declaration adds.

/** What every declaration states: its wording, and an example where a tool may send one. */
interface Described {
  description: string;
  example?: string;
}

const STRING = { type: String } as const;

/** Free text, at most `maxLength` characters (documented when given; else 200, or `longest`). */
export const Text = (documented: Described & { maxLength?: number }, longest?: number) =>
  QueryParameter({ ...STRING, ...documented }, (name, value) =>
    optionalText(name, value, longest ?? documented.maxLength),
  );

/** An integer within bounds, `default` when absent (else undefined). */
export function Integer(
  documented: Described & { minimum: number; maximum?: number; default?: number },
  options: { atMost?: string } = {},
): QueryParameterDecorator<number | undefined> {
  const { minimum: min, maximum: max, default: fallback } = documented;
  return QueryParameter(
    { type: 'integer', ...documented },
    (name, value) =>
      fallback === undefined
        ? optionalIntegerParameter(name, value, { min, max })
        : integerParameter(name, value, { fallback, min, max }),
    options,
  );
}

/** The page size of a paged list (companies, plans): from 1 to 100, 20 when not given. */
export const PAGE_SIZE = { minimum: 1, maximum: 100, default: 20 } as const;

export const PageLimit = (items: string) =>
  Integer({ ...PAGE_SIZE, description: `${items} per page` });

/** The page number of a paged list, from 1. */
export const PageNumber = () =>
  Integer({ minimum: 1, default: 1, description: 'Page number, from 1' });

/** A decimal number >= 0. */
export const Amount = (documented: Described, options: { atMost?: string } = {}) =>
  QueryParameter({ type: Number, minimum: 0, ...documented }, amountParameter, options);

/** `true` or `false`. */
export const Flag = (documented: Described) =>
  QueryParameter(
    { schema: { type: 'string', enum: ['true', 'false'] }, ...documented },
    booleanParameter,
  );

/**
 * One of `values`; `fallback` when absent, which the document leaves to the description. The
 * enumeration goes in a schema of its own: Nest drops the example of an `enum:` parameter.
 */
export const OneOf = <T extends string>(
  values: readonly T[],
  { example, ...documented }: Described,
  fallback?: T,
) =>
  QueryParameter(
    { schema: { type: 'string', enum: [...values], example }, ...documented },
    (name, value) => oneOfParameter(name, value, values, fallback),
  );

/** One pricing change type (docs/API.md, "PricingChange"); else 400 INVALID_EVENT_TYPE. */
export const EventType = ({ example, ...documented }: Described) =>
  QueryParameter(
    { schema: { type: 'string', enum: [...PRICING_CHANGE_TYPES], example }, ...documented },
    eventTypeParameter,
  );

/**
 * `field`, `-field`, `field:asc` or `field:desc` with field one of `fields`; `default` when
 * absent. Not an enum: the pattern names the fields.
 */
export function Sort<F extends string>(
  fields: readonly F[],
  documented: Described & { default: string },
): QueryParameterDecorator<SortOrder<F>> {
  const alternatives = fields.join('|');
  const fallback = sortParameter('sort', documented.default, fields)!;
  return QueryParameter(
    { ...STRING, pattern: `^(-?(${alternatives})|(${alternatives}):(asc|desc))$`, ...documented },
    (name, value) => sortParameter(name, value, fields) ?? fallback,
  );
}

/**
 * A currency to convert into: three letters, any case, answered upper-case; else 400
 * INVALID_CURRENCY. Its example only where a tool sending it gets an answer worth having
 * (a converted answer has no ETag).
 */
export const Currency = (documented: Partial<Described> = {}) =>
  QueryParameter(
    {
      ...STRING,
      pattern: PATTERNS.currencyParameter,
      description:
        "Convert each charge's monthly equivalent into this currency (three letters, any case) " +
        'at the exchange rate of the latest date on or before its version: each charge then ' +
        'carries converted (null without a rate)',
      ...documented,
    },
    currencyParameter,
  );

/** One of the eight categories, in any case (not an enum: a generated client would refuse `communication`). */
export const Category = (documented: Described) =>
  QueryParameter({ ...STRING, ...documented }, categoryParameter);

/** An exact size band, N+ or N-M; else 400 INVALID_EMPLOYEES. */
export const Employees = (documented: Described) =>
  QueryParameter({ ...STRING, pattern: PATTERNS.employees, ...documented }, employeesParameter);

/** A full company slug. */
export const Company = (documented: Described) =>
  QueryParameter({ ...STRING, pattern: PATTERNS.companySlug, ...documented }, companyParameter);

/** A change feed position (`since=`), the start when absent; else 400 INVALID_CURSOR with `refusal`. */
export const FeedCursor = (documented: Described, refusal: string) =>
  QueryParameter({ ...STRING, pattern: PATTERNS.cursor, ...documented }, (name, value) =>
    feedCursorParameter(name, value, refusal),
  );

/** A scrape version YYYYMMDD, checked as a version. */
export const Version = (documented: Described & { required?: boolean }) =>
  QueryParameter({ ...STRING, pattern: PATTERNS.version, ...documented }, (name, value) =>
    versionParameter(name, value, documented.required === true),
  );

/** A calendar date YYYYMMDD; else 400 INVALID_DATE (and, required, 400 INVALID_PARAMETER when absent). */
export const CalendarDate = (documented: Described & { required?: boolean }) =>
  QueryParameter({ ...STRING, pattern: PATTERNS.version, ...documented }, (name, value) =>
    calendarDateParameter(name, value, documented.required === true),
  );

/** A version, quarter, month or week, as given and as the period it names. */
export const PeriodOf = (documented: Described) =>
  QueryParameter({ ...STRING, pattern: PATTERNS.period, ...documented }, periodParameter);

// Comma lists (`a,b`): their items, empty ones dropped; undefined when absent or empty.

/** Any items. */
export const List = (documented: Described) =>
  QueryParameter({ ...STRING, ...documented }, (name, value) => listParameter(name, value));

/** Categories, each in any case, in canonical spelling. */
export const Categories = (documented: Described) =>
  QueryParameter({ ...STRING, ...documented }, categoriesParameter);

/** Size bands (`1000+`, `51-200`). */
export const EmployeeBands = (documented: Described) =>
  QueryParameter({ ...STRING, ...documented }, employeeBandsParameter);

/** Required: `count.min` to `count.max` slugs of pages or companies, in any form `{slug}` takes. */
export const Slugs = (documented: Described, count: ItemCount) =>
  QueryParameter(
    { ...STRING, required: true, maxLength: slugListLength(count.max), ...documented },
    (name, value) => slugsParameter(name, value, count),
  );

/** Full company slugs. */
export const Companies = (documented: Described) =>
  QueryParameter({ ...STRING, ...documented }, companiesParameter);

/** Values of an open vocabulary (billing, modality...): lower-case identifiers. */
export const Identifiers = (documented: Described) =>
  QueryParameter({ ...STRING, ...documented }, identifiersParameter);

/** Currency codes, each in any case; else 400 INVALID_CURRENCY. */
export const Currencies = (documented: Described) =>
  QueryParameter({ ...STRING, ...documented }, currenciesParameter);
