import {
  CATEGORIES,
  COMPANY_SLUG,
  employeeBandLowerBound,
  OPEN_IDENTIFIER,
  PRICING_CHANGE_TYPES,
  type PricingChangeType,
  VALUE_PATTERNS,
} from '#app/domain';
import { decodeCursor, START_OF_FEED, type FeedPosition } from '#app/persistence';
import { ApiError } from '../errors/api-error.js';

/** A query string value as Fastify parses it: repeated parameters arrive as an array. */
export type QueryValue = string | string[] | undefined;

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

/** The page size of a paged list (companies, plans): from 1 to 100, 20 when not given. */
export const PAGE_SIZE = { fallback: 20, min: 1, max: 100 } as const;

/** `limit` and `page` of a paged list, within PAGE_SIZE and from page 1. */
export function pageParameters(query: Record<string, QueryValue>): { limit: number; page: number } {
  return {
    limit: integerParameter('limit', query.limit, PAGE_SIZE),
    page: integerParameter('page', query.page, { fallback: 1, min: 1 }),
  };
}

/** An integer parameter without a default: undefined when absent. */
export function optionalIntegerParameter(
  name: string,
  value: QueryValue,
  bounds: { min: number; max?: number },
): number | undefined {
  return single(name, value) === undefined
    ? undefined
    : integerParameter(name, value, { fallback: bounds.min, ...bounds });
}

/** `true` or `false`; undefined when absent. */
export function booleanParameter(name: string, value: QueryValue): boolean | undefined {
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
export function amountParameter(name: string, value: QueryValue): number | undefined {
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
function canonicalCategory(text: string, code: string): string {
  const category = CATEGORIES.find((known) => known.toLowerCase() === text.toLowerCase());
  if (!category) {
    throw new ApiError(400, code, `Unknown category: ${text}`, {
      parameter: 'category',
      provided: text,
      valid_values: [...CATEGORIES],
    });
  }
  return category;
}

/** One category, in any case, given in canonical spelling; else 400 INVALID_CATEGORY. */
export function categoryParameter(value: QueryValue): string | undefined {
  const text = optionalText('category', value);
  return text === undefined ? undefined : canonicalCategory(text, 'INVALID_CATEGORY');
}

/** A full company slug such as notion.so. */
function companySlugOf(text: string): string {
  if (!COMPANY_SLUG.test(text) || text.length > 255) {
    throw new ApiError(400, 'INVALID_PARAMETER', `company is not a company slug: ${text}`, {
      parameter: 'company',
      provided: text,
      expected: 'a company slug such as notion.so',
    });
  }
  return text;
}

export function companyParameter(value: QueryValue): string | undefined {
  const text = optionalText('company', value, 255);
  return text === undefined ? undefined : companySlugOf(text);
}

/** One of the pricing change types of the fixed list (docs/API.md, "PricingChange"). */
export function eventTypeParameter(value: QueryValue): PricingChangeType | undefined {
  const text = optionalText('event_type', value, 100);
  if (text !== undefined && !PRICING_CHANGE_TYPES.includes(text as PricingChangeType)) {
    throw new ApiError(400, 'INVALID_EVENT_TYPE', `Unknown event_type: ${text}`, {
      parameter: 'event_type',
      provided: text,
      valid_values: [...PRICING_CHANGE_TYPES],
    });
  }
  return text as PricingChangeType | undefined;
}

export function employeesParameter(value: QueryValue): string | undefined {
  const text = optionalText('employees', value);
  if (text === undefined) return undefined;
  if (employeeBandLowerBound(text) === null) {
    throw new ApiError(
      400,
      'INVALID_EMPLOYEES',
      'employees must be a size band such as 1000+ or 51-200',
      {
        parameter: 'employees',
        provided: text,
        expected: 'N+ or N-M (encode + as %2B)',
      },
    );
  }
  return text;
}

const SORT = /^(-)?([a-z_]+)(?::(asc|desc))?$/;

/** `field`, `-field`, `field:asc` or `field:desc` with field one of `fields`; default `fallback` ascending. */
export function sortParameter<F extends string>(
  value: QueryValue,
  fields: readonly F[],
  fallback: F,
): { sort: F; descending: boolean } {
  const text = single('sort', value);
  if (text === undefined || text === '') return { sort: fallback, descending: false };
  const match = SORT.exec(text);
  const field = match?.[2] as F | undefined;
  if (!match || !field || !fields.includes(field) || (match[1] && match[3])) {
    throw new ApiError(400, 'INVALID_PARAMETER', `Invalid sort: ${text}`, {
      parameter: 'sort',
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
export function currencyParameter(value: QueryValue): string | undefined {
  const text = optionalText('currency', value, 20);
  return text === undefined ? undefined : currencyCodeOf('currency', text);
}

/** A comma list (`a,b`): its items, empty ones dropped; undefined when absent or empty. */
export function listParameter(
  name: string,
  value: QueryValue,
  maxLength = 1000,
): string[] | undefined {
  const text = optionalText(name, value, maxLength);
  const items = text
    ?.split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return items && items.length > 0 ? items : undefined;
}

/** A comma list of categories, each in any case, given in canonical spelling; else 400. */
export function categoriesParameter(value: QueryValue): string[] | undefined {
  return listParameter('category', value)?.map((text) =>
    canonicalCategory(text, 'INVALID_PARAMETER'),
  );
}

/** A comma list of size bands (`1000+`, `51-200`); else 400. */
export function employeeBandsParameter(value: QueryValue): string[] | undefined {
  const bands = listParameter('employees', value);
  for (const band of bands ?? []) {
    if (employeeBandLowerBound(band) === null) {
      throw new ApiError(400, 'INVALID_PARAMETER', `employees: ${band} is no size band`, {
        parameter: 'employees',
        provided: band,
        expected: 'size bands such as 1000+ or 51-200, comma-separated (encode + as %2B)',
      });
    }
  }
  return bands;
}

/** A comma list of full company slugs; else 400. */
export function companiesParameter(value: QueryValue): string[] | undefined {
  return listParameter('company', value)?.map(companySlugOf);
}

/** A comma list of values of an open vocabulary (billing, modality...): lower-case identifiers. */
export function identifiersParameter(name: string, value: QueryValue): string[] | undefined {
  return listParameter(name, value)?.map((item) => {
    if (!OPEN_IDENTIFIER.test(item) || item.length > 100) {
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
export function currenciesParameter(name: string, value: QueryValue): string[] | undefined {
  return listParameter(name, value)?.map((item) => currencyCodeOf(name, item));
}

/**
 * `since=`: a change feed position (the change feed's and the export's), the start of the feed
 * when absent; a cursor this service did not hand out is 400 INVALID_CURSOR with `message`.
 */
export function feedCursorParameter(value: QueryValue, message: string): FeedPosition {
  const since = optionalText('since', value, 100);
  const after = since === undefined ? START_OF_FEED : decodeCursor(since);
  if (!after) {
    throw new ApiError(400, 'INVALID_CURSOR', message, { parameter: 'since', provided: since });
  }
  return after;
}
