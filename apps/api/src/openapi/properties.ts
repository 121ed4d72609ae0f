import type { Type } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { PATTERNS } from './patterns.js';

type PropertyTable = Record<string, ApiPropertyOptions>;

/**
 * A base class whose properties are documented from a table, as one `@ApiProperty` each would:
 * `'name?'` marks a property an answer may leave out, and a property is a string unless its
 * options give another type or an `anyOf` (any JSON value). The response bodies are plain
 * objects the query services build, never instances of these classes, so a schema class needs
 * only its name (`@ApiSchema`) and this table.
 */
export function Properties(properties: PropertyTable): Type<object> {
  return WithProperties(class {}, properties);
}

/** As Properties, after the properties of `base` (the schema extends it). */
export function WithProperties(base: Type<object>, properties: PropertyTable): Type<object> {
  class Documented extends base {}
  for (const [key, options] of Object.entries(properties)) {
    const optional = key.endsWith('?');
    const document = optional ? ApiPropertyOptional : ApiProperty;
    // Object adds no type of its own to an anyOf (Nest needs some type).
    const type = 'anyOf' in options ? Object : String;
    document({ type, ...options })(Documented.prototype, optional ? key.slice(0, -1) : key);
  }
  return Documented;
}

/** A version or calendar date, YYYYMMDD. */
export const version = (description: string, example: string) =>
  ({ pattern: PATTERNS.version, description, example }) as const;

/** A version or calendar date, YYYYMMDD, or null. */
export const nullableVersion = (description: string, example: string) =>
  ({ ...version(description, example), nullable: true }) as const;

/** A number, or null. */
export const nullableNumber = (description: string, example: number) =>
  ({ type: Number, nullable: true, description, example }) as const;
