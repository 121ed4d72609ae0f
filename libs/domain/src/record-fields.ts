// class-transformer reads decorator metadata when a record class loads, whoever imports it.
import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  buildMessage,
  Equals,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { CATEGORIES, employeeBandLowerBound, OPEN_IDENTIFIER } from './catalogue.js';
import { COMPANY_SLUG, PAGE_SLUG } from './slugs.js';
import { VALUE_PATTERNS } from './value-patterns.js';
import { isValidVersion } from './versions.js';

/**
 * The kind of a record field and its limits, each within what every read model and both
 * databases hold. Lengths count UTF-16 code units (JavaScript's `length`), never fewer than the
 * characters a PostgreSQL varchar(n) counts. A list or an object names the class of its items.
 */
type FieldKind =
  | { kind: 'text'; minLength: number; maxLength: number }
  | { kind: 'url' | 'company-slug' | 'page-slug' | 'identifier' | 'scraper'; maxLength: number }
  /** A size band (`N+`, `N-M`): its text, and each of its numbers. */
  | { kind: 'employees'; maxLength: number; maxBound: number }
  | { kind: 'integer'; minimum: number; maximum: number }
  /**
   * A finite double (JSON.parse reads 1e400 as Infinity, which JSON text cannot hold), at least
   * `minimum`, above `exclusiveMinimum` and at most `maximum` where they are given.
   */
  | { kind: 'number'; minimum: number | null; exclusiveMinimum?: number; maximum?: number }
  /** Any JSON value, stored as sent: the length of its JSON text. */
  | { kind: 'free-form'; maxJsonLength: number }
  | { kind: 'list'; maxItems: number; items: () => RecordClass }
  | { kind: 'object'; fields: () => RecordClass }
  /** Bounded by its syntax alone: a category, a YYYYMMDD date, an ISO 4217 code, a boolean. */
  | { kind: 'category' | 'version' | 'currency' | 'boolean' };

/** What a field says beyond its kind: whether it may be null or left out, and its documentation. */
interface FieldOptions {
  nullable?: boolean;
  optional?: boolean;
  description?: string;
  example?: unknown;
  /** The reason given for a value of the wrong syntax, where it is not the kind's own. */
  message?: string;
}

/** The class of a record or of a part of one (a plan, a charge...). */
export type RecordClass = abstract new (...args: never[]) => object;

/** One declared field, as a class's decorator gives it. */
export type DeclaredField = FieldKind & FieldOptions & { name: string };

/**
 * One declared field with the classes of its items resolved to their declared fields: what
 * record validation's spec, the bounds, the OpenAPI schemas and the tests walk.
 */
export type FieldDeclaration = (
  | Exclude<FieldKind, { kind: 'list' | 'object' }>
  | { kind: 'list'; maxItems: number; items: FieldsDeclaration }
  | { kind: 'object'; fields: FieldsDeclaration }
) &
  Omit<FieldOptions, 'message'>;

export type FieldsDeclaration = { readonly [field: string]: FieldDeclaration };

/**
 * How deep arrays and objects may nest in a pushed value, the value itself being level 1. A
 * record's own structure is six levels deep; its free-form fields get the rest.
 */
export const MAX_JSON_DEPTH = 32;

const HTTP_URL = /^https?:\/\/[^\s]+$/;
// The API's own patterns (its OpenAPI document states them): a record's values are the ones it
// answers with. A version of that shape that is no calendar date is told apart (CalendarDate).
const VERSION_PATTERN = new RegExp(VALUE_PATTERNS.version);
const CURRENCY_PATTERN = new RegExp(VALUE_PATTERNS.currency);
const EMPLOYEES_PATTERN = new RegExp(VALUE_PATTERNS.employees);

/** Each class's declared fields, in their order. Written once, as the classes load. */
const DECLARED = new WeakMap<RecordClass, DeclaredField[]>();

/** The fields `type` declares, in their order. */
export function declaredFields(type: RecordClass): readonly DeclaredField[] {
  return DECLARED.get(type) ?? [];
}

/**
 * A record field: its kind and limits are its checks (class-validator's, with the reasons
 * clients read), and the same declaration gives the record's bounds, its OpenAPI schema and the
 * read-model columns.
 */
export function Field(kind: FieldKind, options: FieldOptions = {}): PropertyDecorator {
  return (target, property) => {
    const name = String(property);
    const type = target.constructor as RecordClass;
    DECLARED.set(type, [...declaredFields(type), { ...kind, ...options, name }]);
    for (const decorate of checksOf(kind, options, name)) decorate(target, property);
  };
}

/** The record's type tag: `type` holds exactly `value`. */
export function RecordTypeTag(value: string): PropertyDecorator {
  return Equals(value);
}

/**
 * A field's checks, in the order their reasons are given: its limits, then its syntax, then
 * whether it may be null or left out.
 */
function checksOf(kind: FieldKind, options: FieldOptions, name: string): PropertyDecorator[] {
  const orNull = options.nullable && !options.optional ? ' or null' : '';
  const syntax = (pattern: RegExp, reason: string) =>
    Matches(pattern, { message: options.message ?? `$property must be ${reason}${orNull}` });
  const checks = ((): PropertyDecorator[] => {
    switch (kind.kind) {
      case 'text':
        return [TextLength(kind.minLength, kind.maxLength), IsString()];
      case 'url':
        return [TextLength(0, kind.maxLength), syntax(HTTP_URL, 'an http(s) URL')];
      case 'company-slug':
        return [TextLength(0, kind.maxLength), syntax(COMPANY_SLUG, 'a company slug')];
      case 'page-slug':
        return [
          TextLength(0, kind.maxLength),
          syntax(PAGE_SLUG, 'one lower-case label or empty'),
          IsString(),
        ];
      case 'identifier':
        return [TextLength(0, kind.maxLength), syntax(OPEN_IDENTIFIER, 'a lower-case identifier')];
      case 'scraper':
        return [TextLength(0, kind.maxLength), IsString()];
      case 'employees':
        return [
          TextLength(0, kind.maxLength),
          BandBoundsAtMost(kind.maxBound),
          syntax(EMPLOYEES_PATTERN, 'a band such as 1000+ or 51-200'),
          BandInOrder(),
        ];
      case 'integer':
        return [Min(kind.minimum), Max(kind.maximum), IsInt()];
      case 'number':
        return [...numberBounds(kind), IsNumber({ allowNaN: false, allowInfinity: false })];
      case 'free-form':
        return [JsonLengthAtMost(kind.maxJsonLength)];
      // ValidateNested alone lets an array through where an object belongs (it validates the
      // array's items, none in []): IsObject on an object and on the items of a list.
      case 'list':
        return [
          Type(kind.items),
          ValidateNested({ each: true }),
          IsObject({ each: true, message: `each ${name.replace(/s$/, '')} must be an object` }),
          ArrayMaxSize(kind.maxItems),
          IsArray(),
        ];
      case 'object':
        return [
          Type(kind.fields),
          ValidateNested(),
          IsObject({ message: `$property must be an object${orNull}` }),
        ];
      case 'category':
        return [
          IsIn(CATEGORIES, { message: `$property must be one of: ${CATEGORIES.join(', ')}` }),
        ];
      case 'version':
        return [syntax(VERSION_PATTERN, 'YYYYMMDD'), CalendarDate()];
      case 'currency':
        return [syntax(CURRENCY_PATTERN, 'a three-letter ISO 4217 code')];
      case 'boolean':
        return [IsBoolean(orNull ? { message: `$property must be a boolean${orNull}` } : {})];
    }
  })();
  if (options.optional) checks.push(IsOptional());
  else if (options.nullable) checks.push(ValidateIf((_, value) => value !== null));
  return checks;
}

/**
 * A text's length in UTF-16 code units, which never counts fewer characters than PostgreSQL
 * does. (class-validator's MinLength and MaxLength count code points and skip variation
 * selectors: `a` followed by 300 U+FE0F is one character to them and overflows a varchar(255).)
 */
const TextLength = (min: number, max: number) =>
  ValidateBy({
    name: 'textLength',
    validator: {
      validate: (value) =>
        typeof value !== 'string' || (value.length >= min && value.length <= max),
      defaultMessage: buildMessage((each) =>
        min > 0
          ? `${each}$property must be ${min} to ${max} characters long`
          : `${each}$property must be at most ${max} characters long`,
      ),
    },
  });

/** Each number of a size band (`N+`, `N-M`) at most `max`. */
const BandBoundsAtMost = (max: number) =>
  ValidateBy({
    name: 'bandBoundsAtMost',
    validator: {
      validate: (value) =>
        typeof value !== 'string' || (value.match(/\d+/g) ?? []).every((n) => Number(n) <= max),
      defaultMessage: buildMessage((each) => `${each}$property band bounds must be at most ${max}`),
    },
  });

/** A size band whose end is not below its start (a band of another form is Matches' to refuse). */
const BandInOrder = () =>
  ValidateBy({
    name: 'bandInOrder',
    validator: {
      validate: (value) =>
        typeof value !== 'string' ||
        !EMPLOYEES_PATTERN.test(value) ||
        employeeBandLowerBound(value) !== null,
      defaultMessage: buildMessage(() => '$property range must not end below its start'),
    },
  });

/** A YYYYMMDD that names a day of the calendar (a text of another form is Matches' to refuse). */
const CalendarDate = () =>
  ValidateBy({
    name: 'calendarDate',
    validator: {
      validate: (value) =>
        typeof value !== 'string' || !VERSION_PATTERN.test(value) || isValidVersion(value),
      defaultMessage: buildMessage(() => '$property must be a real calendar date'),
    },
  });

/** A free-form value whose JSON text is at most `max` characters long. */
const JsonLengthAtMost = (max: number) =>
  ValidateBy({
    name: 'jsonLengthAtMost',
    validator: {
      validate: (value) => value === undefined || JSON.stringify(value).length <= max,
      defaultMessage: buildMessage(
        (each) => `${each}$property must be at most ${max} characters long as JSON`,
      ),
    },
  });

/** A bound of a number that leaves any other value to IsNumber's one reason (Max gives two). */
const NumberBound = (name: string, holds: (value: number) => boolean, rule: string) =>
  ValidateBy({
    name,
    validator: {
      validate: (value) => typeof value !== 'number' || holds(value),
      defaultMessage: buildMessage((each) => `${each}$property must ${rule}`),
    },
  });

function numberBounds(kind: Extract<FieldKind, { kind: 'number' }>): PropertyDecorator[] {
  const { minimum, exclusiveMinimum: above, maximum } = kind;
  return [
    ...(minimum === null ? [] : [Min(minimum)]),
    ...(above === undefined
      ? []
      : [NumberBound('greaterThan', (value) => value > above, `be greater than ${above}`)]),
    ...(maximum === undefined
      ? []
      : [NumberBound('atMost', (value) => value <= maximum, `not be greater than ${maximum}`)]),
  ];
}

/** The fields `type` declares, with the classes of lists and objects resolved, in their order. */
export function fieldsOf(type: RecordClass): FieldsDeclaration {
  return Object.fromEntries(
    declaredFields(type).map(
      ({ name, message: _message, ...field }): [string, FieldDeclaration] => {
        if (field.kind === 'list') return [name, { ...field, items: fieldsOf(field.items()) }];
        if (field.kind === 'object') return [name, { ...field, fields: fieldsOf(field.fields()) }];
        return [name, field];
      },
    ),
  );
}

/**
 * One limit of a declared field, for a column or a parameter that holds its values (a record's
 * slug column is as long as the slug may be).
 */
export function declaredLimit<C extends RecordClass>(
  type: C,
  field: keyof InstanceType<C> & string,
  limit: 'maxLength' | 'maxItems' | 'maxBound' | 'maxJsonLength',
): number {
  const declared = declaredFields(type).find(({ name }) => name === field);
  const value = declared && (declared as Partial<Record<typeof limit, number>>)[limit];
  if (value === undefined) throw new Error(`${type.name}.${field} declares no ${limit}`);
  return value;
}

/** The longest text a declared field may hold. */
export const maxLengthOf = <C extends RecordClass>(
  type: C,
  field: keyof InstanceType<C> & string,
) => declaredLimit(type, field, 'maxLength');
