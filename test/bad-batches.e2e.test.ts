import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IngestQueue } from '#app/contracts';
import { RECORD_TYPES } from '#app/domain';
import { TransactionRunner } from '#app/persistence';
import { ingestAndProject, type GeneralErrorBody } from './support/catalogue-fixture.js';
import { hostileJson, hostileString, oddJsonText } from './support/hostile-input.js';
import { keysMatching } from './support/redis-keys.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/**
 * POST /v1/ingest/records with generated bad batches: valid records (test/support/records.ts)
 * with fields mutated into wrong types, missing and unknown fields, huge strings, numbers out of
 * range, bad slugs and versions, unknown types, mixed with valid records, as a JSON array or
 * NDJSON (some with broken lines), under wrong content types, or too many. Every one is refused
 * with a 4xx in the documented shape, naming exactly the bad records, and changes nothing: the
 * queue's jobs, the batch manifests, the event log and the read models are as they were.
 */

/** Batches per run; each costs a request and a reading of the queue, the log and the tables. */
const RUNS = 300;

type Json = fc.JsonValue;
type Path = (string | number)[];

const environment = testEnvironment();
let api: TestApp;
let ingestKey: string;
let before: StoreState;

beforeAll(async () => {
  api = await startTestApp(environment.config());
  ingestKey = await api.createKey(['ingest']);
  await ingestAndProject(api, [
    records.company('acme.io', { name: 'Acme' }),
    records.page('acme.io'),
    records.scrape('acme.io', '', '20250105'),
    records.pricing('acme.io', '', '20250105'),
  ]);
  before = await storeState();
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

describe('POST /v1/ingest/records refuses a bad batch whole', () => {
  it('answers a documented 4xx that names every bad record, and changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(badSubmission(), async (submission) => {
        const response = await api.request('/ingest/records', {
          method: 'POST',
          headers: { authorization: `Bearer ${ingestKey}`, 'content-type': submission.contentType },
          body: submission.body,
        });
        const body = (await response.json()) as GeneralErrorBody;
        expect(submission.statuses).toContain(response.status);
        if (submission.invalid) {
          const invalid = (body.details?.invalid ?? []) as { index: number }[];
          expect(invalid.map((record) => record.index)).toEqual(submission.invalid);
        }
        if (submission.brokenLine) expect(body.details?.line).toBe(submission.brokenLine);
        expect(await storeState()).toEqual(before);
      }),
      // The first batch that fails is reported as it was sent, not shrunk: one that got through
      // changed the store, against which no later batch can be judged (shrinking a wrong status
      // code alone is lost too).
      {
        numRuns: RUNS,
        endOnFailure: true,
        examples: REGRESSIONS.map((submission) => [submission]),
      },
    );
  });
});

/** What a bad batch must not change: the queue, the batch manifests, the log, the read models. */
interface StoreState {
  jobs: Record<string, number>;
  manifests: number;
  events: unknown[];
  readModels: Record<string, unknown[]>;
}

const READ_MODELS = ['companies', 'pricing_pages', 'scrape_files', 'pricing_snapshots'];

async function storeState(): Promise<StoreState> {
  const ingestQueue = api.app.get(IngestQueue);
  const database = api.app.get(TransactionRunner);
  const match = `${api.config.redis.queuePrefix}:ingest-batch:*`;
  const manifests = (await keysMatching(ingestQueue.redis, match)).length;
  const readModels: Record<string, unknown[]> = {};
  for (const table of READ_MODELS) {
    readModels[table] = await database.query(`SELECT * FROM ${table} ORDER BY id`);
  }
  return {
    jobs: await ingestQueue.queue.getJobCounts(),
    manifests,
    events: await database.query('SELECT COUNT(*) AS n, MAX(seq) AS last FROM events'),
    readModels,
  };
}

interface Submission {
  contentType: string;
  body: string;
  /** The answers that are right: all 4xx. */
  statuses: number[];
  /** Indexes `details.invalid` must list, when the batch parses into records. */
  invalid?: number[];
  /** The first NDJSON line that is not JSON, which `details.line` must name. */
  brokenLine?: number;
}

/** Valid records of each type; every batch starts from copies of these. */
const VALID: Json[] = [
  records.company('fine.io'),
  records.page('fine.io', 'team'),
  records.scrape('fine.io', '', '20250105', { html_url: 'https://cdn.example.com/fine.html' }),
  records.pricing('fine.io', '', '20250105', 12),
].map((record) => JSON.parse(JSON.stringify(record)) as Json);

/**
 * Fields a record may leave out (docs/pipelines.md, "Record fields"): the extraction's scraper and a
 * charge's usage_type, price_display, included_quantity and overage_info. Deleting one is no
 * mistake, and adding one is no unknown field.
 */
const OPTIONAL_FIELDS = new Set([
  'scraper',
  'usage_type',
  'price_display',
  'included_quantity',
  'overage_info',
]);

const SLUG_FIELDS = new Set(['slug', 'company_slug', 'page_slug']);

/** Numbers outside what a record may hold: a score is an integer from 0 to 10, a price >= 0. */
const OUT_OF_RANGE: Record<string, number[]> = {
  score: [-1, 11, 2.5, 1e308, -1e308],
  price: [-1, -0.01, -Number.MAX_VALUE],
};

/** One mistake in a record. `pick` chooses among the places it can go. */
type Mutation =
  | { kind: 'wrong-type'; pick: number; values: Json[] }
  | { kind: 'missing'; pick: number }
  | { kind: 'unknown-field'; pick: number; key: string; value: Json }
  | { kind: 'huge'; pick: number; unit: string; length: number }
  | { kind: 'out-of-range'; pick: number; choice: number }
  | { kind: 'bad-slug'; pick: number; slug: string }
  | { kind: 'bad-version'; version: string }
  | { kind: 'unknown-type'; type: string }
  | { kind: 'nul-character'; pick: number }
  | { kind: 'deep'; pick: number; depth: number }
  | { kind: 'not-an-object'; value: Json };

function mutation(): fc.Arbitrary<Mutation> {
  const pick = fc.nat();
  return fc.oneof(
    fc.record({
      kind: fc.constant('wrong-type' as const),
      pick,
      // One value of each JSON type but null, to choose from.
      values: fc.tuple(
        hostileString(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.boolean(),
        fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 2 }),
        fc.dictionary(hostileString(), fc.jsonValue({ maxDepth: 1 }), {
          maxKeys: 2,
        }),
      ),
    }),
    fc.record({ kind: fc.constant('missing' as const), pick }),
    fc.record({
      kind: fc.constant('unknown-field' as const),
      pick,
      key: fc.oneof(
        fc.constantFrom('__proto__', 'constructor', 'toString', 'slug', 'version', 'id', 'Type'),
        hostileString(),
      ),
      value: hostileJson(),
    }),
    fc.record({
      kind: fc.constant('huge' as const),
      pick,
      // Longer than any documented maxLength (2048), matching no pattern or enum; short enough
      // that eight records with three mistakes each stay under the 5 MB body limit.
      unit: fc.constantFrom('X', 'É', '🙂', ' ', "'"),
      length: fc.integer({ min: 3000, max: 20_000 }),
    }),
    fc.record({ kind: fc.constant('out-of-range' as const), pick, choice: fc.nat() }),
    fc.record({
      kind: fc.constant('bad-slug' as const),
      pick,
      slug: fc.oneof(
        fc.constantFrom('Acme.io', '../../etc/passwd', 'a..b', '-acme', 'acme-', 'x'.repeat(256)),
        // Whatever surrounds it, one of these characters is in no slug.
        fc
          .tuple(
            fc.string(),
            fc.constantFrom(' ', 'A', '/', '%', '_', "'", 'é', '\u0000'),
            fc.string(),
          )
          .map(([head, bad, tail]) => head + bad + tail),
      ),
    }),
    fc.record({
      kind: fc.constant('bad-version' as const),
      version: fc.constantFrom('20250231', '2025-01-05', '00000000', '20251301', '2025010', ''),
    }),
    fc.record({
      kind: fc.constant('unknown-type' as const),
      type: fc.oneof(
        fc.constantFrom('Company', 'companies', 'mystery', ''),
        hostileString().filter((type) => !(RECORD_TYPES as readonly string[]).includes(type)),
      ),
    }),
    fc.record({ kind: fc.constant('nul-character' as const), pick }),
    fc.record({
      kind: fc.constant('deep' as const),
      pick,
      depth: fc.integer({ min: 40, max: 5000 }),
    }),
    fc.record({
      kind: fc.constant('not-an-object' as const),
      value: fc.oneof(
        fc.constantFrom<Json>(null, 0, true, 'company', []),
        fc.array(hostileJson(), { maxLength: 2 }),
      ),
    }),
  );
}

/** A copy of `record` with the mistake applied; an object record keeps its root an object. */
function mutated(record: Json, change: Mutation, original: Json): Json {
  if (!isObject(record)) return record;
  const parts = partsOf(record);
  const choose = <T>(candidates: T[], pick: number): T | undefined =>
    candidates[pick % Math.max(candidates.length, 1)];
  switch (change.kind) {
    case 'wrong-type': {
      const part = choose(parts, change.pick);
      if (!part) break;
      // Of another type than the valid record has there, or a second mistake could undo the
      // first; where it has null, no string either (a string could be a valid URL).
      const valid = valueAt(original, part.path);
      const validType = jsonType(valid === undefined ? part.value : valid);
      const wrong = (type: string) =>
        type !== validType && type !== 'null' && !(validType === 'null' && type === 'string');
      const value = change.values.find((candidate) => wrong(jsonType(candidate)));
      return replaced(record, part.path, value ?? []);
    }
    case 'missing': {
      // Only a field of the valid record: deleting a field an earlier mistake added would undo it.
      const part = choose(
        parts.filter(
          (candidate) =>
            isRequiredField(candidate.path) && valueAt(original, candidate.path) !== undefined,
        ),
        change.pick,
      );
      if (!part) break;
      return replaced(record, part.path, undefined);
    }
    case 'unknown-field': {
      const objects = [{ path: [] as Path, value: record as Json }, ...parts].filter((part) =>
        isObject(part.value),
      );
      const target = choose(objects, change.pick);
      const known = new Set(Object.keys(valueAt(original, target?.path ?? []) ?? {}));
      const key =
        known.has(change.key) || OPTIONAL_FIELDS.has(change.key) ? 'unexpected' : change.key;
      return replaced(record, [...(target?.path ?? []), key], change.value);
    }
    case 'huge': {
      const part = choose(
        parts.filter((candidate) => typeof candidate.value === 'string'),
        change.pick,
      );
      if (!part) break;
      return replaced(record, part.path, change.unit.repeat(change.length));
    }
    case 'out-of-range': {
      const part = choose(
        parts.filter((candidate) => OUT_OF_RANGE[String(candidate.path.at(-1))]),
        change.pick,
      );
      if (!part) break;
      const values = OUT_OF_RANGE[String(part.path.at(-1))] ?? [];
      return replaced(record, part.path, values[change.choice % values.length] ?? -1);
    }
    case 'bad-slug': {
      const part = choose(
        parts.filter((candidate) => SLUG_FIELDS.has(String(candidate.path.at(-1)))),
        change.pick,
      );
      if (!part) break;
      return replaced(record, part.path, change.slug);
    }
    case 'bad-version':
      if (!('version' in record)) break;
      return replaced(record, ['version'], change.version);
    case 'unknown-type':
      return replaced(record, ['type'], change.type);
    case 'nul-character': {
      const part = choose(
        parts.filter((candidate) => typeof candidate.value === 'string'),
        change.pick,
      );
      if (!part) break;
      return replaced(record, part.path, `${String(part.value)}\u0000`);
    }
    case 'deep': {
      const part = choose(parts, change.pick);
      if (!part) break;
      return replaced(record, part.path, nested(change.depth));
    }
    case 'not-an-object':
      return change.value;
  }
  // The mistake has no place in this record (a company has no version): an unknown field does.
  return replaced(record, ['unexpected'], true);
}

/** One part of a JSON value below its root, and where it sits. */
interface Part {
  path: Path;
  value: Json;
}

function partsOf(value: Json, path: Path = []): Part[] {
  if (!isObject(value) && !Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, child]) => {
    const at = [...path, Array.isArray(value) ? Number(key) : key];
    return [{ path: at, value: child }, ...partsOf(child, at)];
  });
}

/** A field of an object that the record may not leave out (array items are not fields). */
function isRequiredField(path: Path): boolean {
  const key = path.at(-1);
  return typeof key === 'string' && !OPTIONAL_FIELDS.has(key);
}

function valueAt(value: Json, path: Path): Json | undefined {
  let current: Json | undefined = value;
  for (const key of path) {
    if (Array.isArray(current) && typeof key === 'number') current = current[key];
    else if (isObject(current) && typeof key === 'string' && Object.hasOwn(current, key)) {
      current = current[key];
    } else return undefined;
  }
  return current;
}

/** A copy of `root` with the value at `path` set (as an own property, even `__proto__`) or deleted. */
function replaced(root: Json, path: Path, value: Json | undefined): Json {
  const copy = JSON.parse(JSON.stringify(root)) as Json;
  const parent = valueAt(copy, path.slice(0, -1)) as Record<string | number, Json>;
  const key = path.at(-1) as string | number;
  if (value === undefined) delete parent[key];
  else Object.defineProperty(parent, key, { value, enumerable: true, writable: true });
  return copy;
}

/**
 * Nested arrays `depth` levels deep, as a mark that `serialized` writes out as text: on thousands
 * of levels JSON.stringify would overflow the stack, as class-transformer did in the service.
 */
function nested(depth: number): Json {
  return `${NESTED_MARK}${depth}${NESTED_MARK}`;
}

const NESTED_MARK = '\u0000nested\u0000';
const NESTED = /"\\u0000nested\\u0000(\d+)\\u0000nested\\u0000"/g;

function serialized(value: Json): string {
  return JSON.stringify(value).replace(NESTED, (_, depth: string) => {
    const levels = Number(depth);
    return `${'['.repeat(levels)}1${']'.repeat(levels)}`;
  });
}

function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function jsonType(value: Json): string {
  return Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
}

/** A batch of valid and mutated records (at least one mutated), and which indexes are bad. */
function recordsBatch(): fc.Arbitrary<{ batch: Json[]; invalid: number[] }> {
  return fc
    .array(
      fc.record({
        base: fc.nat({ max: VALID.length - 1 }),
        mistakes: fc.oneof(
          fc.constant<Mutation[]>([]),
          fc.array(mutation(), { minLength: 1, maxLength: 3 }),
        ),
      }),
      { minLength: 1, maxLength: 8 },
    )
    .filter((entries) => entries.some((entry) => entry.mistakes.length > 0))
    .map((entries) => ({
      batch: entries.map(({ base, mistakes }) => {
        const original = VALID[base] as Json;
        return mistakes.reduce((record, change) => mutated(record, change, original), original);
      }),
      invalid: entries.flatMap((entry, index) => (entry.mistakes.length > 0 ? [index] : [])),
    }));
}

function asJson({ batch, invalid }: { batch: Json[]; invalid: number[] }): Submission {
  return {
    contentType: 'application/json',
    body: serialized(batch),
    statuses: [400],
    // Fastify's JSON parser itself refuses a body holding a `__proto__` key or a
    // `constructor.prototype`, before any record is looked at: no index list then.
    ...(poisonsPrototypes(batch) ? {} : { invalid }),
  };
}

function poisonsPrototypes(batch: Json[]): boolean {
  return partsOf(batch).some(
    ({ path }) =>
      path.at(-1) === '__proto__' || (path.at(-1) === 'prototype' && path.at(-2) === 'constructor'),
  );
}

function asNdjson({ batch, invalid }: { batch: Json[]; invalid: number[] }): Submission {
  return {
    contentType: 'application/x-ndjson',
    body: batch.map((record) => serialized(record)).join('\n'),
    statuses: [400],
    invalid,
  };
}

/** A line that is not JSON, on one line. */
function brokenLine(): fc.Arbitrary<string> {
  return fc
    .oneof(
      fc.constantFrom('{', '[1,]', "{'a':1}", '{"type":"company"', 'NaN', 'undefined', '\u0000'),
      oddJsonText(),
    )
    .filter((line) => !line.includes('\n') && line.trim() !== '' && !parses(line));
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Valid records as NDJSON with broken lines among them: the first broken line is named. */
function ndjsonWithBrokenLines(): fc.Arbitrary<Submission> {
  const line = fc.oneof(
    fc.nat({ max: VALID.length - 1 }).map((index) => JSON.stringify(VALID[index])),
    brokenLine(),
  );
  return fc
    .array(line, { minLength: 1, maxLength: 8 })
    .filter((lines) => lines.some((text) => !parses(text)))
    .map((lines) => ({
      contentType: 'application/x-ndjson',
      body: lines.join('\n'),
      statuses: [400],
      brokenLine: lines.findIndex((text) => !parses(text)) + 1,
    }));
}

/** A valid batch sent as something else than JSON or NDJSON: 415, or 400 when read as text. */
function wrongContentType(): fc.Arbitrary<Submission> {
  return fc
    .tuple(
      fc.constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/xml',
        'application/octet-stream',
        'application/json-seq',
      ),
      fc.array(fc.nat({ max: VALID.length - 1 }), { minLength: 1, maxLength: 4 }),
    )
    .map(([contentType, picks]) => ({
      contentType,
      body: JSON.stringify(picks.map((index) => VALID[index])),
      statuses: [400, 415],
    }));
}

/** A body that is no batch at all: not an array, an empty one, or not JSON. */
function notABatch(): fc.Arbitrary<Submission> {
  return fc
    .oneof(
      hostileJson().map((value) => JSON.stringify(Array.isArray(value) ? {} : value)),
      fc.constant('[]'),
      oddJsonText().filter((text) => !parses(text)),
    )
    .map((body) => ({ contentType: 'application/json', body, statuses: [400] }));
}

function badSubmission(): fc.Arbitrary<Submission> {
  const tooMany = fc.constant<Submission>({
    contentType: 'application/json',
    body: JSON.stringify(Array.from({ length: 1001 }, () => VALID[0])),
    statuses: [413],
  });
  return fc.oneof(
    { weight: 4, arbitrary: recordsBatch().map(asJson) },
    { weight: 2, arbitrary: recordsBatch().map(asNdjson) },
    { weight: 1, arbitrary: ndjsonWithBrokenLines() },
    { weight: 1, arbitrary: wrongContentType() },
    { weight: 1, arbitrary: notABatch() },
    { weight: 1, arbitrary: tooMany },
  );
}

/** Batches that were accepted, or answered 500, before record validation was fixed. */
const REGRESSIONS: Submission[] = [
  // class-transformer read a `constructor` key as the value's class and threw: 500.
  replaced(VALID[3] as Json, ['plans', 0, 'internal_name'], { constructor: ' ' }),
  // Keys every object inherits passed the unknown-field check: accepted.
  replaced(VALID[3] as Json, ['toString'], 1),
  // An array where a plan, a charge or a pricing metric belongs passed as a list: accepted.
  replaced(VALID[3] as Json, ['plans'], [[]]),
  replaced(VALID[3] as Json, ['plans', 0, 'charges'], [[]]),
  replaced(VALID[3] as Json, ['plans', 0, 'charges', 0, 'pricing_metric'], []),
  // A NUL character was accepted, and then stopped every projection on PostgreSQL.
  replaced(VALID[0] as Json, ['name'], 'Fine\u0000'),
  // Thousands of levels overflowed class-transformer's stack: 500.
  replaced(VALID[3] as Json, ['plans', 0, 'charges', 0, 'included_quantity'], nested(5000)),
]
  .map((record) => asJson({ batch: [VALID[1] as Json, record], invalid: [1] }))
  .concat(
    // Sent as NDJSON, a `__proto__` key reaches record validation, which missed it: accepted.
    asNdjson({
      batch: [VALID[1] as Json, replaced(VALID[3] as Json, ['__proto__'], {})],
      invalid: [1],
    }),
  );
