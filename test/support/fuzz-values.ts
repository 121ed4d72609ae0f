import fc from 'fast-check';
import { hostileJson, hostileString } from './hostile-input.js';

/**
 * Values for the fuzz test (fuzz.e2e.test.ts), generated from the schemas of the served OpenAPI
 * document: valid-looking ones (required fields, bounds, patterns, formats, enums, examples, and
 * the test's own fixture values for fields of known names) and the same with hostile values in
 * place of some of their parts (wrong types, huge, unicode, NUL, lone surrogates, deep nesting).
 */

export type Schema = Record<string, unknown>;

/** Values to use for a parameter or a field of this name: the fixture's own, so that requests find data. */
export type Hints = Record<string, fc.Arbitrary<unknown>>;

/** Items generated for an array that sets no smaller bound: enough to vary, few enough to stay fast. */
const ARRAY_ITEMS = 3;
/** Characters of a string that sets no smaller bound. */
const STRING_LENGTH = 30;
/** Nesting deeper than any schema the document holds: a schema that refers to itself stops here. */
const MAX_SCHEMA_DEPTH = 8;

/** A JSON value nested `depth` levels deep, as arrays or objects. */
function nested(depth: number, shape: 'array' | 'object'): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = shape === 'array' ? [value] : { a: value };
  return value;
}

/**
 * Hostile JSON values, beyond hostile-input's: strings JSON carries but UTF-16 text should not
 * (lone surrogates, which JSON.stringify escapes as \ud800), NUL characters, strings far longer
 * than any field, deep nesting, and numbers no column holds. Built once: its huge values are
 * shared, not made again for every field that may hold one.
 */
const HOSTILE_VALUE: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileJson() },
  fc.constantFrom('\ud800', 'a\udfffb', '\udc00\ud800', 'x'.repeat(10) + '\ud83d'),
  fc.constantFrom('\u0000', 'acme\u0000.io', 'a'.repeat(200) + '\u0000'),
  fc.constantFrom('a'.repeat(100_000), '🙂'.repeat(30_000), 'é'.repeat(70_000)),
  fc
    .tuple(
      fc.integer({ min: 30, max: 3000 }),
      fc.constantFrom('array', 'object') as fc.Arbitrary<'array' | 'object'>,
    )
    .map(([depth, shape]) => nested(depth, shape)),
  fc.constantFrom(
    2 ** 31,
    -(2 ** 31) - 1,
    2 ** 63,
    1e308,
    -1e308,
    Number.MIN_VALUE,
    -0,
    Number.MAX_SAFE_INTEGER + 2,
  ),
  fc.constantFrom(
    Array.from({ length: 5_000 }, () => null),
    Array.from({ length: 300 }, () => ({})),
  ),
);

/** Generates values from the document's schemas (`#/components/schemas/...` references resolved). */
export class SchemaValues {
  constructor(
    private readonly components: Record<string, Schema>,
    private readonly hints: Hints,
  ) {}

  /** A value the schema describes (a field named in the hints takes the hinted values). */
  valid(schema: Schema, name?: string): fc.Arbitrary<unknown> {
    return this.value(schema, name, 0, false);
  }

  /** A value shaped by the schema with hostile values in place of some of its parts. */
  tainted(schema: Schema, name?: string): fc.Arbitrary<unknown> {
    return this.value(schema, name, 0, true);
  }

  private value(
    schema: Schema,
    name: string | undefined,
    depth: number,
    taint: boolean,
  ): fc.Arbitrary<unknown> {
    const shaped = this.shaped(this.resolve(schema), name, depth, taint);
    if (!taint) return shaped;
    return fc.oneof({ weight: 6, arbitrary: shaped }, { weight: 1, arbitrary: HOSTILE_VALUE });
  }

  private resolve(schema: Schema): Schema {
    if (typeof schema.$ref !== 'string') return schema;
    const referenced = this.components[schema.$ref.replace('#/components/schemas/', '')];
    if (!referenced) throw new Error(`The document has no schema ${schema.$ref}`);
    return this.resolve(referenced);
  }

  private shaped(
    schema: Schema,
    name: string | undefined,
    depth: number,
    taint: boolean,
  ): fc.Arbitrary<unknown> {
    if (depth > MAX_SCHEMA_DEPTH) return fc.constant(null);
    const types = ([] as unknown[]).concat(schema.type ?? []);
    const hint = name === undefined ? undefined : this.hints[name];
    if (hint) {
      return types.includes('array')
        ? fc.array(hint, { minLength: 1, maxLength: ARRAY_ITEMS })
        : hint;
    }
    if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
    const alternatives = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
    if (alternatives) {
      return fc.oneof(
        ...alternatives.map((alternative) => this.value(alternative, name, depth, taint)),
      );
    }
    const options = types.map((type) => this.ofType(schema, type, depth, taint));
    if (schema.example !== undefined) options.push(fc.constant(schema.example));
    // No type: any JSON value (the free-form fields).
    return options.length > 0 ? fc.oneof(...options) : fc.jsonValue({ maxDepth: 2 });
  }

  private ofType(
    schema: Schema,
    type: unknown,
    depth: number,
    taint: boolean,
  ): fc.Arbitrary<unknown> {
    switch (type) {
      case 'object':
        return this.object(schema, depth, taint);
      case 'array':
        return this.array(schema, depth, taint);
      case 'string':
        return stringOf(schema);
      case 'integer': {
        const min = (schema.minimum as number | undefined) ?? 0;
        const max = schema.maximum as number | undefined;
        // Small numbers mostly; without a maximum, at times up to the largest exact one.
        return fc.oneof(
          { weight: 4, arbitrary: fc.integer({ min, max: max ?? 10_000 }) },
          fc.integer({ min, max: max ?? Number.MAX_SAFE_INTEGER }),
        );
      }
      case 'number':
        return fc.double({
          min: (schema.minimum as number | undefined) ?? -1e6,
          max: (schema.maximum as number | undefined) ?? 1e6,
          noNaN: true,
        });
      case 'boolean':
        return fc.boolean();
      default:
        return fc.constant(null);
    }
  }

  private object(schema: Schema, depth: number, taint: boolean): fc.Arbitrary<unknown> {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    if (Object.keys(properties).length === 0)
      return fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
    const record = fc.record(
      Object.fromEntries(
        Object.entries(properties).map(([key, property]) => [
          key,
          this.value(property, key, depth + 1, taint),
        ]),
      ),
      { requiredKeys: ((schema.required ?? []) as string[]).filter((key) => key in properties) },
    );
    if (!taint) return record;
    // Hostile objects also miss required fields or carry ones nobody documented.
    return fc.oneof(
      { weight: 4, arbitrary: record },
      fc.record(
        Object.fromEntries(
          Object.entries(properties).map(([key, property]) => [
            key,
            this.value(property, key, depth + 1, false),
          ]),
        ),
        { requiredKeys: [] },
      ),
      fc
        .tuple(record, hostileString(), HOSTILE_VALUE)
        .map(([object, key, extra]) => ({ ...(object as object), [key]: extra })),
    );
  }

  private array(schema: Schema, depth: number, taint: boolean): fc.Arbitrary<unknown> {
    const minLength = (schema.minItems as number | undefined) ?? 0;
    const maxLength = Math.min(
      (schema.maxItems as number | undefined) ?? Infinity,
      minLength + ARRAY_ITEMS,
    );
    const itemSchema = (schema.items ?? {}) as Schema;
    const array = fc.array(this.value(itemSchema, undefined, depth + 1, taint), {
      minLength,
      maxLength,
    });
    if (!taint) return array;
    const maxItems = schema.maxItems as number | undefined;
    return fc.oneof(
      { weight: 4, arbitrary: array },
      fc.constant([]),
      // One item past the bound: a valid item repeated (a thousand hostile ones could make a
      // body of gigabytes, and generating a thousand would be slow).
      ...(maxItems === undefined
        ? []
        : [
            this.value(itemSchema, undefined, depth + 1, false).map((item) =>
              Array.from({ length: maxItems + 1 }, () => item),
            ),
          ]),
    );
  }
}

/** A string within the schema's pattern, format and length bounds. */
function stringOf(schema: Schema): fc.Arbitrary<string> {
  const minLength = (schema.minLength as number | undefined) ?? 0;
  const maxLength = (schema.maxLength as number | undefined) ?? Infinity;
  const fits = (text: string) => text.length >= minLength && text.length <= maxLength;
  if (typeof schema.pattern === 'string') {
    return fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
  }
  if (schema.format === 'date-time') {
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((date) => date.toISOString());
  }
  if (schema.format === 'uuid') return fc.uuid();
  return fc.string({ minLength, maxLength: Math.min(maxLength, minLength + STRING_LENGTH) });
}
