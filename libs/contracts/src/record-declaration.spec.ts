import { describe, expect, it } from 'vitest';
import {
  CATEGORIES,
  RECORD_FIELDS,
  RECORD_TYPES,
  type FieldDeclaration,
  type FieldsDeclaration,
  type RecordType,
} from '#app/domain';
import { recordProblems } from './record-validation.js';

/**
 * Record validation, held to the records' declared fields (RECORD_FIELDS, from the record
 * classes): for every field of every record type, at any depth, leaving it out and sending null
 * are accepted exactly when its declaration says the field is optional or nullable, and a field
 * it does not declare is refused.
 */

const SCRAPERS = ['scraper_1'];

/** A valid value of a declared field, made from its kind and bounds alone. */
function sample(field: FieldDeclaration): unknown {
  switch (field.kind) {
    case 'company-slug':
      return 'acme.io';
    case 'page-slug':
      return 'team';
    case 'url':
      return 'https://acme.io/pricing';
    case 'identifier':
      return 'per_seat';
    case 'scraper':
      return SCRAPERS[0];
    case 'text':
      return 'x'.repeat(Math.max(field.minLength, 1));
    case 'employees':
      return '11-50';
    case 'integer':
      return field.minimum;
    case 'number':
      return field.maximum ?? field.minimum ?? -1;
    case 'free-form':
      return { seats: 5 };
    case 'category':
      return CATEGORIES[0];
    case 'version':
      return '20250105';
    case 'currency':
      return 'USD';
    case 'boolean':
      return true;
    case 'list':
      return [sampleOf(field.items)];
    case 'object':
      return sampleOf(field.fields);
  }
}

function sampleOf(fields: FieldsDeclaration): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, sample(field)]));
}

type Path = (string | number)[];

/** Every declared field of `fields` with its path in a sample record, lists at their item 0. */
function fieldsAt(fields: FieldsDeclaration, path: Path = []): [Path, FieldDeclaration][] {
  return Object.entries(fields).flatMap(([name, field]): [Path, FieldDeclaration][] => {
    const at = [...path, name];
    if (field.kind === 'list') return [[at, field], ...fieldsAt(field.items, [...at, 0])];
    if (field.kind === 'object') return [[at, field], ...fieldsAt(field.fields, at)];
    return [[at, field]];
  });
}

/** `record` with the field at `path` set to `value`, or deleted when `value` is undefined. */
function changed(record: Record<string, unknown>, path: Path, value: unknown) {
  const copy = structuredClone(record);
  const parent = path
    .slice(0, -1)
    .reduce<Record<string | number, unknown>>(
      (inner, step) => inner[step] as Record<string | number, unknown>,
      copy,
    );
  const last = path.at(-1)!;
  if (value === undefined) delete parent[last];
  else parent[last] = value;
  return copy;
}

/** What a rule beyond the declaration needs of a sample: an exchange rate's two currencies differ. */
const RULED: { [T in RecordType]?: Record<string, unknown> } = { exchange_rate: { quote: 'EUR' } };

describe.each(RECORD_TYPES)('a %s record, against its declaration', (type) => {
  const record = { type, ...sampleOf(RECORD_FIELDS[type]), ...RULED[type] };

  it('is valid with every declared field at a sample value', async () => {
    expect(await recordProblems(record, SCRAPERS)).toEqual([]);
  });

  it.each(fieldsAt(RECORD_FIELDS[type]).map(([path, field]) => [path.join('.'), path, field]))(
    '%s may be left out or null exactly as declared',
    async (name, path, field) => {
      const declared = field as FieldDeclaration;
      const problemsWith = (value: unknown) =>
        recordProblems(changed(record, path as Path, value), SCRAPERS);
      const absent = await problemsWith(undefined);
      const nulled = await problemsWith(null);
      // A free-form field holds any JSON value, null included; and validation lets null through
      // wherever a field may be left out (class-validator's IsOptional): the pricing record's
      // scraper, declared optional but not nullable, is read as absent when null.
      const mayBeNull = declared.nullable || declared.optional || declared.kind === 'free-form';
      expect({ absent, nulled }).toEqual({
        absent: declared.optional ? [] : expect.arrayContaining([expect.stringContaining(name)]),
        nulled: mayBeNull ? [] : expect.arrayContaining([expect.stringContaining(name)]),
      });
    },
  );

  it('refuses a field the declaration lacks', async () => {
    expect(await recordProblems({ ...record, undeclared: 1 }, SCRAPERS)).toEqual([
      'undeclared: property undeclared should not exist',
    ]);
  });
});
