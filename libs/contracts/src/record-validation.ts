import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError, type ValidatorOptions } from 'class-validator';
import {
  MAX_JSON_DEPTH,
  RECORD_FIELDS,
  RECORD_CLASSES,
  RECORD_TYPES,
  recordTypeOf,
  type FieldsDeclaration,
  type IngestRecord,
} from '#app/domain';

/*
 * Record validation: the checks each record class declares (libs/domain, records.ts), after the
 * walks that keep a hostile value away from class-transformer, and the rules across fields.
 */

// Unknown fields are refused: a misspelt optional field would otherwise vanish silently.
const OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
};

interface JsonShapeProblem {
  /** Where, as a dotted path (`plans.0.charges`); empty for the value itself. */
  field: string;
  reason: string;
}

/** Half of a UTF-16 surrogate pair without its other half: no character, so not storable text. */
const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * A part of `value` that must not reach class-transformer or the database, walked
 * without recursion: more than `maxValues` values in all (objects, arrays and the values in
 * them, when given); nesting deeper than MAX_JSON_DEPTH; a key every object inherits
 * (`constructor`, `__proto__`, `toString`...), which class-validator takes for a declared field
 * and class-transformer for the value's class (it throws); text the database would refuse
 * (a NUL character: an event holding one would stop the projections for good) or change (a lone
 * surrogate, stored as U+FFFD); or a number JSON cannot hold (JSON.parse reads 1e400 as
 * Infinity, which JSON.stringify writes as null).
 */
export function jsonShapeProblem(
  value: unknown,
  { maxValues = Infinity }: { maxValues?: number } = {},
): JsonShapeProblem | null {
  const pending: [unknown, number, string][] = [[value, 1, '']];
  let values = 0;
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [current, depth, field] = next;
    if (++values > maxValues) {
      return { field, reason: `a body holds at most ${maxValues} values in all` };
    }
    if (typeof current === 'string') {
      const reason = textProblem(current);
      if (reason) return { field, reason };
    }
    if (typeof current === 'number' && !Number.isFinite(current)) {
      return { field, reason: 'numbers must be finite' };
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth > MAX_JSON_DEPTH) {
      return { field, reason: `arrays and objects may nest at most ${MAX_JSON_DEPTH} levels deep` };
    }
    for (const [key, child] of Object.entries(current)) {
      const at = field ? `${field}.${key}` : key;
      if (!Array.isArray(current) && (key in Object.prototype || textProblem(key))) {
        return { field: at, reason: `the key ${JSON.stringify(key)} is not allowed` };
      }
      pending.push([child, depth + 1, at]);
    }
  }
  return null;
}

function textProblem(text: string): string | null {
  if (text.includes('\0')) return 'text must not contain the NUL character';
  if (LONE_SURROGATE.test(text)) return 'text must not contain a lone UTF-16 surrogate';
  return null;
}

/**
 * The reasons given for one record, at most: a record within every bound can still hold 10,000
 * charges, each with a handful of problems, and the answer would run to megabytes.
 */
const MAX_REASONS = 20;

/** Why a pushed value is not a valid record (empty when it is). Used by the API and the worker. */
export async function recordProblems(
  value: unknown,
  scrapers: readonly string[],
): Promise<string[]> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return ['a record must be a JSON object'];
  }
  const recordType = recordTypeOf(value);
  // First, as it looks at no more than the declared lists' lengths.
  const tooLong = recordType && listTooLong(value, RECORD_FIELDS[recordType]);
  if (tooLong) return [tooLong];
  const shape = jsonShapeProblem(value);
  if (shape) return [`${shape.field}: ${shape.reason}`];
  if (!recordType) return [`type must be one of: ${RECORD_TYPES.join(', ')}`];
  const input = plainToInstance<object, unknown>(RECORD_CLASSES[recordType], value);
  const problems = flatten(await validate(input, OPTIONS));
  problems.push(...domainProblems(value as IngestRecord, scrapers));
  return problems.length <= MAX_REASONS
    ? problems
    : [
        ...problems.slice(0, MAX_REASONS - 1),
        `and ${problems.length - MAX_REASONS + 1} more problems`,
      ];
}

/**
 * The first declared list (plans, charges, discounts) of `value` longer than its bound, walked
 * before class-transformer: it would build and check every item of a list of any length (a
 * 200 KB body of empty charges took the checking thread's whole heap).
 */
function listTooLong(value: object, fields: FieldsDeclaration): string | null {
  const pending: [object, FieldsDeclaration, string][] = [[value, fields, '']];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [current, declared, path] = next;
    for (const [name, bounds] of Object.entries(declared)) {
      const field = (current as Record<string, unknown>)[name];
      const at = path ? `${path}.${name}` : name;
      if (bounds.kind === 'object' && field !== null && typeof field === 'object') {
        pending.push([field, bounds.fields, at]);
      }
      if (bounds.kind !== 'list' || !Array.isArray(field)) continue;
      if (field.length > bounds.maxItems) {
        return `${at} must contain no more than ${bounds.maxItems} elements`;
      }
      for (const [index, item] of field.entries()) {
        if (item !== null && typeof item === 'object') {
          pending.push([item, bounds.items, `${at}.${index}`]);
        }
      }
    }
  }
  return null;
}

/** Rules across fields, or on the configuration, which a field's decorator cannot say. */
function domainProblems(record: IngestRecord, scrapers: readonly string[]): string[] {
  const problems: string[] = [];
  if (record.type === 'exchange_rate' && typeof record.base === 'string') {
    if (record.base === record.quote) problems.push('base and quote must be different currencies');
  }
  const scraper =
    record.type === 'scrape' || record.type === 'pricing' ? record.scraper : undefined;
  if (typeof scraper === 'string' && !scrapers.includes(scraper)) {
    problems.push(`scraper must be one of: ${scrapers.join(', ')}`);
  }
  return problems;
}

function flatten(errors: ValidationError[], path = ''): string[] {
  return errors.flatMap((error) => {
    const at = path ? `${path}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) =>
      message.startsWith(error.property)
        ? `${path ? `${path}.` : ''}${message}`
        : `${at}: ${message}`,
    );
    return [...own, ...flatten(error.children ?? [], at)];
  });
}
