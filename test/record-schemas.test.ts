import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_FIELDS, RECORD_TYPES, type FieldsDeclaration, type RecordType } from '#app/domain';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/**
 * The record schemas of the OpenAPI document, held to the one declaration of the records (their
 * classes in libs/domain, as RECORD_FIELDS lists them): each has exactly the declared fields in
 * their order, requires those not declared optional, and allows null exactly where the
 * declaration does (a free-form field holds any JSON value), at any depth. Their bounds:
 * test/record-bounds.property.test.ts.
 */

type Schema = Record<string, unknown>;
type Document = { components: { schemas: Record<string, Schema> } };

const SCHEMA_NAMES: Record<RecordType, string> = {
  company: 'CompanyRecord',
  page: 'PageRecord',
  scrape: 'ScrapeRecord',
  pricing: 'PricingRecord',
  exchange_rate: 'ExchangeRateRecord',
};

const environment = testEnvironment();
let api: TestApp;
let document: Document;

beforeAll(async () => {
  api = await startTestApp(environment.config(), { withWorker: false });
  const response = await fetch(`${api.baseUrl}/api/openapi.json`);
  document = (await response.json()) as Document;
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

/** The object schema behind references and nullable wrappers. */
function resolve(schema: Schema): Schema {
  if (typeof schema.$ref === 'string') {
    return resolve(document.components.schemas[schema.$ref.split('/').at(-1)!]!);
  }
  const object = (schema.anyOf as Schema[] | undefined)?.find((member) => member.$ref);
  return object ? resolve(object) : schema;
}

const allowsNull = (schema: Schema) =>
  (Array.isArray(schema.type) && schema.type.includes('null')) ||
  ((schema.anyOf as Schema[] | undefined) ?? []).some((member) => member.type === 'null');

/** How `schema` differs from the declaration of `fields`, as readable lines. */
function differences(schema: Schema, fields: FieldsDeclaration, at: string, own: string[] = []) {
  const properties = schema.properties as Record<string, Schema>;
  const declared = [...own, ...Object.keys(fields)];
  const required = [
    ...own,
    ...Object.entries(fields).flatMap(([name, field]) => (field.optional ? [] : [name])),
  ];
  const found: string[] = [];
  if (JSON.stringify(Object.keys(properties)) !== JSON.stringify(declared)) {
    found.push(`${at}: properties ${Object.keys(properties).join(', ')}`);
  }
  if (JSON.stringify(schema.required ?? []) !== JSON.stringify(required)) {
    found.push(`${at}: required ${JSON.stringify(schema.required)}`);
  }
  for (const [name, field] of Object.entries(fields)) {
    const property = properties[name];
    if (!property) continue;
    if (allowsNull(property) !== Boolean(field.nullable || field.kind === 'free-form')) {
      found.push(`${at}.${name}: ${allowsNull(property) ? 'allows' : 'refuses'} null`);
    }
    if (field.kind === 'list') {
      found.push(...differences(resolve(property.items as Schema), field.items, `${at}.${name}[]`));
    }
    if (field.kind === 'object') {
      found.push(...differences(resolve(property), field.fields, `${at}.${name}`));
    }
  }
  return found;
}

describe('the record schemas of POST /v1/ingest/records', () => {
  it('have exactly the declared fields, required and nullable as declared', () => {
    const found = RECORD_TYPES.flatMap((type) =>
      differences(
        resolve({ $ref: `#/components/schemas/${SCHEMA_NAMES[type]}` }),
        RECORD_FIELDS[type],
        type,
        ['type'],
      ),
    );
    expect(found).toEqual([]);
  });
});
