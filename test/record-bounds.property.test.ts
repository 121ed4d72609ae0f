import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_JSON_DEPTH,
  RECORD_FIELDS,
  maxLengthOf,
  ScrapeRecord,
  RECORD_TYPES,
  compositePageSlug,
  monthlyEquivalent,
  roundMoney,
  type FieldDeclaration,
  type FieldsDeclaration,
  type IngestRecord,
  type RecordType,
} from '#app/domain';
import { ExchangeRateReader } from '#app/persistence';
import { getJson, ingestAndProject, type GeneralErrorBody } from './support/catalogue-fixture.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/**
 * Everything that validates also projects (issue 16). From the declared fields alone, each run
 * generates, for every bounded field of every record type, values at its bounds and just past
 * them (lengths, numbers, band bounds, list sizes, nesting, text PostgreSQL cannot store as
 * sent, numbers JSON cannot hold), each in its own chain of records (company, page, scrape,
 * pricing as far as the field's record; an exchange rate alone), and sends them all through
 * POST /v1/ingest/records. Every record past a bound is refused with a 400 naming its index and
 * the field; every other one is accepted, projected and served by the read API (an exchange
 * rate by its reader) exactly as it was sent.
 */

const SEED = 1_600_016;
/** Runs per database; each sends every boundary value of every field once. */
const RUNS = 2;
const VERSION = '20250105';

type Path = (string | number)[];

/** One value at (`within`) or past a bound, made for the chain it goes in. */
interface Boundary {
  label: string;
  within: boolean;
  value: (context: { id: string; base: unknown }) => unknown;
}

/** A declared field with limits of its own (a category, version, currency or boolean has none). */
type FieldBounds = Exclude<FieldDeclaration, { kind: (typeof FIXED_KINDS)[number] }>;
const FIXED_KINDS = ['category', 'version', 'currency', 'boolean'] as const;
const isBounded = (field: FieldDeclaration): field is FieldBounds =>
  !(FIXED_KINDS as readonly string[]).includes(field.kind);

/** A field of a record type with its bounds, and where it sits in the record. */
interface BoundedField {
  type: RecordType;
  path: Path;
  bounds: FieldBounds;
}

/** Fields whose value names the chain (its company, its page, its scrape). */
const KEY_KINDS = ['company-slug', 'page-slug', 'scraper'] as const;
type KeyKind = (typeof KEY_KINDS)[number];
const isKeyKind = (kind: string): kind is KeyKind =>
  (KEY_KINDS as readonly string[]).includes(kind);

/**
 * Scrapers are configured: one name at the bound. One past it cannot be (SCRAPERS refuses it at
 * start-up), so a record naming it is refused, on its scraper, either way.
 */
const SCRAPER_LENGTH = maxLengthOf(ScrapeRecord, 'scraper');
const scraperName = (length: number) => 'scraper_'.padEnd(length, 'x');

const environment = testEnvironment({
  SCRAPERS: ['scraper_1', scraperName(SCRAPER_LENGTH)].join(','),
});
let api: TestApp;
let ingestKey: string;
let readKey: string;

beforeAll(async () => {
  api = await startTestApp(environment.config());
  ingestKey = await api.createKey(['ingest']);
  readKey = await api.createKey(['read'], 'enterprise');
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

describe('every record within its declared bounds projects, every other is refused', () => {
  it('refuses each value past a bound naming the field, and serves each other as sent', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(everyBoundary(), async (boundaries) => {
        run += 1;
        const cases = chains(boundaries, `r${run}`);
        const batch = cases.flatMap((chain) => chain.records.map((sent) => sent.record));
        const response = await api.request('/ingest/records', {
          method: 'POST',
          headers: { authorization: `Bearer ${ingestKey}`, 'content-type': 'application/json' },
          body: serialized(batch),
        });
        const body = (await response.json()) as GeneralErrorBody;
        expect(response.status, JSON.stringify(body).slice(0, 500)).toBe(400);
        const invalid = (body.details?.invalid ?? []) as { index: number; reasons: string[] }[];
        const refused = new Map(invalid.map((record) => [record.index, record.reasons]));
        const sent = cases.flatMap((chain) => chain.records);

        // What got through must be projected and served as sent...
        const accepted = sent.filter((_record, index) => !refused.has(index));
        const misserved: string[] = [];
        try {
          await ingestAndProject(
            api,
            accepted.map((record) => asSent(record.record)),
          );
          for (const record of accepted) {
            const served = await servedAs(record.record);
            if (!isDeepStrictEqual(served, expectedServing(record.record))) {
              misserved.push(`${record.label}: served ${JSON.stringify(served).slice(0, 300)}`);
            }
          }
        } catch (error) {
          misserved.push(String(error).slice(0, 2000));
        }
        // ...and the declared bound is the line: past it refused, naming the field; at it accepted.
        const misjudged = sent.flatMap((record, index) => {
          const reasons = refused.get(index);
          if (record.refusedField === null) return reasons ? [`${record.label}: ${reasons}`] : [];
          if (!reasons) return [`${record.label}: accepted`];
          return reasons.some((reason) => names(reason, record.refusedField!))
            ? []
            : [`${record.label}: ${reasons}`];
        });
        expect({ misserved, misjudged }).toEqual({ misserved: [], misjudged: [] });
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });
});

describe('the OpenAPI document', () => {
  it('states every declared bound on the record schemas of POST /v1/ingest/records', async () => {
    const document = (await getJson(api, '/api/openapi.json', null)).body as OpenApiDocument;
    const misstated = boundedFields().flatMap(({ type, path, bounds }) => {
      const schema = schemaAt(
        document,
        { $ref: `#/components/schemas/${RECORD_SCHEMAS[type]}` },
        path,
      );
      const stated = Object.fromEntries(
        JSON_SCHEMA_BOUNDS.filter((keyword) => keyword in bounds).map((keyword) => [
          keyword,
          schema[keyword],
        ]),
      );
      const declared = Object.fromEntries(
        JSON_SCHEMA_BOUNDS.filter((keyword) => keyword in bounds).map((keyword) => [
          keyword,
          // A bound of nothing (no minimum, a minimum length of 0) is not stated.
          stateable((bounds as Record<string, unknown>)[keyword], keyword),
        ]),
      );
      return isDeepStrictEqual(stated, declared)
        ? []
        : [`${type} ${path.join('.')}: ${JSON.stringify(stated)}`];
    });
    expect(misstated).toEqual([]);
  });
});

function stateable(value: unknown, keyword: string): unknown {
  return value === null || (keyword === 'minLength' && value === 0) ? undefined : value;
}

type OpenApiDocument = { components: { schemas: Record<string, Schema> } };
type Schema = Record<string, unknown>;

const RECORD_SCHEMAS: Record<RecordType, string> = {
  company: 'CompanyRecord',
  page: 'PageRecord',
  scrape: 'ScrapeRecord',
  pricing: 'PricingRecord',
  exchange_rate: 'ExchangeRateRecord',
};

/** The keywords of a JSON Schema that a declared limit of the same name maps to. */
const JSON_SCHEMA_BOUNDS = [
  'minLength',
  'maxLength',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'maxItems',
];

/** The schema of the value at `path`, through references, array items and nullable wrappers. */
function schemaAt(document: OpenApiDocument, schema: Schema, path: Path): Schema {
  const resolved = resolve(document, schema);
  if (path.length === 0) return resolved;
  const [step, ...rest] = path;
  const inner =
    typeof step === 'number'
      ? (resolved.items as Schema)
      : ((resolved.properties as Record<string, Schema>)[step!] as Schema);
  return schemaAt(document, inner, rest);
}

function resolve(document: OpenApiDocument, schema: Schema): Schema {
  if (typeof schema.$ref === 'string') {
    return resolve(document, document.components.schemas[schema.$ref.split('/').at(-1)!]!);
  }
  const members = (schema.allOf ?? schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  const object = members?.find((member) => member.$ref || member.properties);
  return object ? resolve(document, object) : schema;
}

/** The bounded fields of every record type, lists and objects included, walked from the declaration. */
function boundedFields(): BoundedField[] {
  const walk = (type: RecordType, fields: FieldsDeclaration, path: Path): BoundedField[] =>
    Object.entries(fields).flatMap(([name, bounds]) => {
      if (!isBounded(bounds)) return [];
      const at = [...path, name];
      const own = { type, path: at, bounds };
      if (bounds.kind === 'list') return [own, ...walk(type, bounds.items, [...at, 0])];
      if (bounds.kind === 'object') return [own, ...walk(type, bounds.fields, at)];
      return [own];
    });
  return RECORD_TYPES.flatMap((type) => walk(type, RECORD_FIELDS[type], []));
}

/** For each bounded field, its boundary values (random content, bounds from the declaration). */
function everyBoundary(): fc.Arbitrary<{ field: BoundedField; boundary: Boundary }[]> {
  return fc.tuple(...boundedFields().map((field) => boundaries(field))).map((perField) =>
    // A counterexample is told by the test's own report, not by printing every value.
    Object.assign(perField.flat(), { [fc.toStringMethod]: () => 'the boundary values' }),
  );
}

function boundaries(
  field: BoundedField,
): fc.Arbitrary<{ field: BoundedField; boundary: Boundary }[]> {
  const { bounds, path } = field;
  const of = (label: string, within: boolean, value: Boundary['value']) => ({
    field,
    boundary: { label, within, value },
  });
  const fixed = (label: string, within: boolean, value: unknown) => of(label, within, () => value);
  switch (bounds.kind) {
    case 'text':
      return fc
        .tuple(
          text(bounds.maxLength),
          text(bounds.maxLength + 1),
          text(bounds.minLength),
          loneSurrogate(),
        )
        .map(([atMax, pastMax, atMin, broken]) => [
          fixed(`${bounds.maxLength} characters`, true, atMax),
          fixed(`${bounds.maxLength + 1} characters`, false, pastMax),
          fixed(`${bounds.minLength} characters`, true, atMin),
          ...(bounds.minLength > 0
            ? [fixed(`${bounds.minLength - 1} characters`, false, atMin.slice(1))]
            : []),
          fixed('a lone surrogate', false, broken),
          // One code point to class-validator, which skips variation selectors.
          fixed(
            `${bounds.maxLength + 1} characters, variation selectors`,
            false,
            pastMax.slice(0, 1) + VARIATION_SELECTOR.repeat(bounds.maxLength),
          ),
        ]);
    case 'url':
      return fc
        .tuple(url(bounds.maxLength), url(bounds.maxLength + 1), loneSurrogate())
        .map(([atMax, pastMax, broken]) => [
          fixed(`${bounds.maxLength} characters`, true, atMax),
          fixed(`${bounds.maxLength + 1} characters`, false, pastMax),
          fixed('a lone surrogate', false, `https://x.io/${broken}`),
          fixed(
            `${bounds.maxLength + 1} characters, variation selectors`,
            false,
            `https://x.io/`.padEnd(bounds.maxLength + 1, VARIATION_SELECTOR),
          ),
        ]);
    case 'company-slug':
      return fc
        .tuple(slugFill(bounds.maxLength), slugFill(bounds.maxLength + 1))
        .map(([atMax, pastMax]) => [
          of(`${bounds.maxLength} characters`, true, ({ id }) => companySlug(id, atMax)),
          of(`${bounds.maxLength + 1} characters`, false, ({ id }) => companySlug(id, pastMax)),
        ]);
    case 'page-slug':
      return fc
        .tuple(slugFill(bounds.maxLength), slugFill(bounds.maxLength + 1))
        .map(([atMax, pastMax]) => [
          fixed(`${bounds.maxLength} characters`, true, atMax),
          fixed(`${bounds.maxLength + 1} characters`, false, pastMax),
        ]);
    case 'identifier':
      return fc
        .tuple(identifier(bounds.maxLength), identifier(bounds.maxLength + 1))
        .map(([atMax, pastMax]) => [
          fixed(`${bounds.maxLength} characters`, true, atMax),
          fixed(`${bounds.maxLength + 1} characters`, false, pastMax),
        ]);
    case 'scraper':
      return fc.constant([
        fixed(`${bounds.maxLength} characters`, true, scraperName(bounds.maxLength)),
        fixed(`${bounds.maxLength + 1} characters`, false, scraperName(bounds.maxLength + 1)),
      ]);
    case 'employees': {
      const { maxBound, maxLength } = bounds;
      return fc.constant([
        fixed(`${maxBound}+`, true, `${maxBound}+`),
        fixed(`0-${maxBound}`, true, `0-${maxBound}`),
        fixed(`${maxLength} characters`, true, `${'0'.repeat(maxLength - 2)}1+`),
        fixed(`${maxBound + 1}+`, false, `${maxBound + 1}+`),
        fixed(`0-${maxBound + 1}`, false, `0-${maxBound + 1}`),
        fixed(`${maxLength + 1} characters`, false, `${'0'.repeat(maxLength - 1)}1+`),
      ]);
    }
    case 'integer':
      return fc.constant([
        fixed(`${bounds.minimum}`, true, bounds.minimum),
        fixed(`${bounds.maximum}`, true, bounds.maximum),
        fixed(`${bounds.minimum - 1}`, false, bounds.minimum - 1),
        fixed(`${bounds.maximum + 1}`, false, bounds.maximum + 1),
      ]);
    case 'number': {
      const { minimum, exclusiveMinimum, maximum } = bounds;
      const lowest =
        minimum ?? (exclusiveMinimum === undefined ? -Number.MAX_VALUE : nextUp(exclusiveMinimum));
      const highest = maximum ?? Number.MAX_VALUE;
      return fc
        .double({ min: lowest, max: highest, noNaN: true, noDefaultInfinity: true })
        .map((inside) => [
          fixed(`${lowest}`, true, lowest),
          fixed(`${highest}`, true, highest),
          fixed(`${inside}`, true, inside),
          ...(minimum === null
            ? []
            : [fixed('just below its minimum', false, minimum - Number.MIN_VALUE)]),
          ...(exclusiveMinimum === undefined
            ? []
            : [fixed('its exclusive minimum', false, exclusiveMinimum)]),
          ...(maximum === undefined
            ? []
            : [fixed('just above its maximum', false, nextUp(maximum))]),
          fixed('1e400 (Infinity)', false, new RawNumber('1e400')),
          fixed('-1e400 (-Infinity)', false, new RawNumber('-1e400')),
        ]);
    }
    case 'free-form': {
      // Nested arrays that reach the deepest level a record may hold, the record being level 1.
      const levels = MAX_JSON_DEPTH - path.length;
      return fc
        .tuple(
          jsonOfLength(bounds.maxJsonLength),
          jsonOfLength(bounds.maxJsonLength + 1),
          loneSurrogate(),
        )
        .map(([atMax, pastMax, broken]) => [
          fixed(`${bounds.maxJsonLength} characters of JSON`, true, atMax),
          fixed(`${bounds.maxJsonLength + 1} characters of JSON`, false, pastMax),
          fixed(`nested ${levels} deep`, true, nested(levels)),
          fixed(`nested ${levels + 1} deep`, false, nested(levels + 1)),
          fixed('1e400 (Infinity) inside', false, { quantity: new RawNumber('1e400') }),
          fixed('a lone surrogate in a text', false, { unit: broken }),
          fixed('a lone surrogate in a key', false, { [broken]: 1 }),
        ]);
    }
    case 'list':
      return fc.constant([
        of(`${bounds.maxItems} items`, true, ({ base }) => copies(base, bounds.maxItems)),
        of(`${bounds.maxItems + 1} items`, false, ({ base }) => copies(base, bounds.maxItems + 1)),
      ]);
    case 'object':
      return fc.constant([]);
  }
}

/** One record sent, what it tests, and the field it must be refused for (null: accepted). */
interface SentRecord {
  record: unknown;
  label: string;
  refusedField: string | null;
}

interface Chain {
  records: SentRecord[];
}

/**
 * Each boundary value in a chain of its own (its own company), up to the record it is a field
 * of; a value that names the chain (a slug, a scraper) is in every record of it. One more chain
 * holds the longest keys together, so that the natural keys they make fit where they are kept.
 */
function chains(values: { field: BoundedField; boundary: Boundary }[], run: string): Chain[] {
  const single = values.map(({ field, boundary }, index) => {
    const id = `${run}c${index}`;
    const label = `${field.type} ${field.path.join('.')} ${boundary.label}`;
    return chain(id, field.type, label, [{ field, boundary }]);
  });
  const longestKeys = values.filter(
    ({ field, boundary }, index) =>
      isKeyKind(field.bounds.kind) &&
      boundary.within &&
      values.findIndex((other) => other.field.bounds.kind === field.bounds.kind) === index,
  );
  return [...single, chain(`${run}long`, 'pricing', 'the longest keys together', longestKeys)];
}

function chain(
  id: string,
  last: RecordType,
  label: string,
  values: { field: BoundedField; boundary: Boundary }[],
): Chain {
  const keys: Record<KeyKind, string | null> = {
    'company-slug': `${id}.io`,
    'page-slug': '',
    scraper: null,
  };
  for (const { field, boundary } of values) {
    if (isKeyKind(field.bounds.kind)) {
      keys[field.bounds.kind] = boundary.value({ id, base: undefined }) as string;
    }
  }
  const companySlug = keys['company-slug']!;
  const pageSlug = keys['page-slug']!;
  const scraper = keys.scraper ?? undefined;
  const all: Record<RecordType, () => unknown> = {
    // A name and URL of their own: the default ones grow with the slug.
    company: () =>
      records.company(companySlug, { name: 'Bounds', url: 'https://bounds.example.com' }),
    page: () => records.page(companySlug, pageSlug),
    scrape: () =>
      records.scrape(companySlug, pageSlug, VERSION, { scraper: scraper ?? 'scraper_1' }),
    pricing: () => records.pricing(companySlug, pageSlug, VERSION, 10, scraper ? { scraper } : {}),
    exchange_rate: () => records.exchangeRate(nextRateDate()),
  };
  // An exchange rate names no company: its chain is itself.
  const types =
    last === 'exchange_rate' ? [last] : RECORD_TYPES.slice(0, RECORD_TYPES.indexOf(last) + 1);
  return {
    records: types.map((type) => {
      const record = all[type]();
      let refusedField: string | null = null;
      for (const { field, boundary } of values) {
        const keyField = isKeyKind(field.bounds.kind)
          ? Object.entries(RECORD_FIELDS[type]).find(
              ([, bounds]) => bounds.kind === field.bounds.kind,
            )?.[0]
          : undefined;
        const path = keyField ? [keyField] : field.type === type ? field.path : null;
        if (!path) continue;
        setAt(record, path, boundary.value({ id, base: valueAt(record, path) }));
        if (!boundary.within) refusedField = path.join('.');
      }
      return { record, label: `${label} (${type} record)`, refusedField };
    }),
  };
}

/** Each exchange rate sent is dated a day after the one before: its own natural key. */
let rateDays = 0;
function nextRateDate(): string {
  rateDays += 1;
  return new Date(Date.UTC(2000, 0, rateDays)).toISOString().slice(0, 10).replaceAll('-', '');
}

/** Whether a reason is about `field` (or a part of it): `field must...`, `field: ...`, `field.x...`. */
function names(reason: string, field: string): boolean {
  return [' ', ':', '.'].some((next) => reason.startsWith(`${field}${next}`));
}

/** The record as the service read it: JSON text parsed (1e400 is Infinity). */
function asSent(record: unknown): IngestRecord {
  return JSON.parse(serialized(record)) as IngestRecord;
}

/** What the read API serves of a record, picked to compare with what was sent. */
async function servedAs(sentRecord: unknown): Promise<unknown> {
  const record = asSent(sentRecord);
  const get = async (path: string) =>
    (await getJson(api, path, readKey)).body as Record<string, unknown>;
  switch (record.type) {
    case 'company': {
      const { name, slug, category, employees, url } = await get(`/api/companies/${record.slug}`);
      return { name, slug, category, employees, url };
    }
    case 'page': {
      const slug = compositePageSlug(record.company_slug, record.page_slug);
      const { company_slug, page_slug, pricing_page_url } = await get(`/api/pages/${slug}`);
      return { company_slug, page_slug, pricing_page_url };
    }
    case 'scrape': {
      const slug = compositePageSlug(record.company_slug, record.page_slug);
      const { files } = await get(`/api/files/${slug}/version/${record.version}`);
      const file = (files as Record<string, unknown>[]).find(
        (one) => one.scraper === record.scraper,
      );
      const { created_at: _created, updated_at: _updated, ...fields } = file ?? {};
      return fields;
    }
    case 'pricing': {
      const slug = compositePageSlug(record.company_slug, record.page_slug);
      const document = await get(`/api/pricing/${slug}?version=${record.version}`);
      return {
        company_slug: document.company_slug,
        page_subslug: document.page_subslug,
        version: document.version,
        plans: withoutIds(document.plans),
      };
    }
    case 'exchange_rate': {
      // No route serves the rates themselves: their reader does, to the routes that convert.
      const rates = await api.app.get(ExchangeRateReader).ratesFor(record.quote, [record.base]);
      return rates.find((rate) => rate.date === record.date);
    }
  }
}

function derivedMonthly(billing: string, price: number | null): number | null {
  const monthly = monthlyEquivalent(billing, price);
  return monthly === null ? null : roundMoney(monthly);
}

/** What the read API must serve of a record: its fields as sent, absent ones as null. */
function expectedServing(sentRecord: unknown): unknown {
  const record = asSent(sentRecord);
  switch (record.type) {
    case 'company': {
      const { type: _type, ...fields } = record;
      return fields;
    }
    case 'page': {
      const { type: _type, ...fields } = record;
      return fields;
    }
    case 'scrape': {
      const { type: _type, company_slug, page_slug: _page, ...fields } = record;
      return { slug: company_slug, ...fields };
    }
    case 'pricing':
      return {
        company_slug: record.company_slug,
        page_subslug: record.page_slug,
        version: record.version,
        plans: record.plans.map((plan) => ({
          ...plan,
          charges: plan.charges.map((charge) => ({
            ...charge,
            usage_type: charge.usage_type ?? null,
            price_display: charge.price_display ?? null,
            included_quantity: charge.included_quantity ?? null,
            overage_info: charge.overage_info ?? null,
            // Derived when served: its own rules are the domain's spec's concern.
            monthly_equivalent: derivedMonthly(charge.billing, charge.price),
          })),
        })),
      };
    case 'exchange_rate': {
      const { type: _type, ...fields } = record;
      return fields;
    }
  }
}

type Plan = Record<string, unknown> & {
  charges: Record<string, unknown>[];
  discounts: Record<string, unknown>[];
};

/** A served document's plans without the ids the service gives plans, charges, metrics, discounts. */
function withoutIds(plans: unknown): unknown {
  const omitId = ({ id: _id, ...rest }: Record<string, unknown>) => rest;
  return (plans as Plan[]).map((plan) => ({
    ...omitId(plan),
    charges: plan.charges.map((charge) => ({
      ...omitId(charge),
      pricing_metric: charge.pricing_metric
        ? omitId(charge.pricing_metric as Record<string, unknown>)
        : null,
    })),
    discounts: plan.discounts.map(omitId),
  }));
}

/** The next double above `value`. */
function nextUp(value: number): number {
  if (value === 0) return Number.MIN_VALUE;
  const bits = new BigInt64Array(new Float64Array([value]).buffer);
  bits[0]! += value > 0 ? 1n : -1n;
  return new Float64Array(bits.buffer)[0]!;
}

/** A number JSON.stringify cannot write (1e400 reads as Infinity): `serialized` writes its text. */
class RawNumber {
  constructor(readonly text: string) {}
  toJSON(): string {
    return `${RAW_MARK}${this.text}${RAW_MARK}`;
  }
}

const RAW_MARK = '\u0000raw\u0000';
const RAW = /"\\u0000raw\\u0000([^"]*?)\\u0000raw\\u0000"/g;

function serialized(value: unknown): string {
  return JSON.stringify(value).replace(RAW, '$1');
}

/** Lone halves of a surrogate pair, alone or the wrong way round: not text in UTF-8. */
function loneSurrogate(): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff', '\udc00\ud800'),
      fc.string({ maxLength: 5 }),
    )
    .map(([broken, around]) => `${around}${broken}${around}`);
}

const VARIATION_SELECTOR = '\ufe0f';

/** Text of characters that differ in UTF-16 units, UTF-8 bytes and escaping. */
const TEXT_UNITS = [
  'a',
  'Z',
  '0',
  ' ',
  'é',
  'ß',
  '日',
  '🙂',
  'e\u0301',
  '"',
  "'",
  '\\',
  '%',
  '_',
  '\u200b',
  '\n',
];

/** `length` UTF-16 units of the given pieces, padded with `x` where a piece would not fit. */
function ofLength(length: number, units: readonly string[]): fc.Arbitrary<string> {
  return fc.array(fc.constantFrom(...units), { maxLength: length }).map((pieces) => {
    let text = '';
    for (const piece of pieces) if (text.length + piece.length <= length) text += piece;
    return text.padEnd(length, 'x');
  });
}

function text(length: number): fc.Arbitrary<string> {
  return ofLength(length, TEXT_UNITS);
}

function url(length: number): fc.Arbitrary<string> {
  const prefix = 'https://files.example.com/';
  return ofLength(length - prefix.length, [
    'a',
    'Z',
    '0',
    '/',
    '?',
    '=',
    '&',
    '%',
    '-',
    '.',
    '~',
    'é',
    '日',
    '🙂',
    "'",
  ]).map((rest) => `${prefix}${rest}`);
}

const SLUG_UNITS = [...'abcdefghijklmnopqrstuvwxyz0123456789-'];

/** A slug label: letters, digits and inner hyphens. */
function slugFill(length: number): fc.Arbitrary<string> {
  return ofLength(length, SLUG_UNITS).map((label) => label.replace(/^-/, 'a').replace(/-$/, 'z'));
}

/** A company slug of exactly the fill's length, unique to its chain (`<id>.<rest of the fill>`). */
function companySlug(id: string, fill: string): string {
  return `${id}.${fill.slice(id.length + 1).replace(/^-/, 'a')}`;
}

function identifier(length: number): fc.Arbitrary<string> {
  return ofLength(length - 1, [...'abcdefghijklmnopqrstuvwxyz0123456789_']).map(
    (rest) => `i${rest}`,
  );
}

/** Any JSON value a record may hold in a free-form field, padded to `length` characters of JSON text. */
function jsonOfLength(length: number): fc.Arbitrary<unknown> {
  // Text without NUL, keys no object inherits: what jsonShapeProblem lets through.
  const storable = (maxLength: number) =>
    fc.string({ unit: 'grapheme', maxLength }).filter((value) => !value.includes('\0'));
  const key = storable(8).filter((name) => !(name in Object.prototype));
  const leaf = fc.oneof(
    storable(20),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
  );
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { maxDepth: 3 },
      leaf,
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(key, tie('value'), { maxKeys: 4 }),
    ),
  }));
  return value.map((content) => {
    const shell = { content, pad: '' };
    const missing = length - JSON.stringify(shell).length;
    if (missing >= 0) return { content, pad: 'x'.repeat(missing) };
    return { pad: 'x'.repeat(length - JSON.stringify({ pad: '' }).length) };
  });
}

function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < levels; level += 1) value = [value];
  return value;
}

function copies(list: unknown, count: number): unknown[] {
  return Array.from({ length: count }, () => structuredClone((list as unknown[])[0]));
}

function valueAt(record: unknown, path: Path): unknown {
  return path.reduce<unknown>(
    (value, key) => (value as Record<string | number, unknown>)?.[key],
    record,
  );
}

/** Sets the value at `path` of a record built for one chain. */
function setAt(record: unknown, path: Path, value: unknown): void {
  const parent = valueAt(record, path.slice(0, -1)) as Record<string | number, unknown>;
  parent[path.at(-1)!] = value;
}
