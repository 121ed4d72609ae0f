import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeysService } from '#app/access';
import { ingestAndProject } from './support/catalogue-fixture.js';
import {
  hostileHeaderValue,
  hostileJson,
  hostileString,
  oddJsonText,
  oddNumberText,
  RAW_URL_FRAGMENTS,
} from './support/hostile-input.js';
import { openApiValidator } from './support/openapi-validator.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/**
 * Every operation of the OpenAPI document the app serves, driven with generated bad input: path
 * parameters, query strings, headers, credentials and bodies. Whatever arrives, the answer is
 * never a 5xx, and it is a status and body the document lists for the operation (test-app's
 * request() checks each response against the document). The operations come from the served
 * document, so a new endpoint is fuzzed without editing this file.
 */

/** Requests per operation: about 20 operations, a few seconds each on two busy cores. */
const RUNS_PER_OPERATION = 100;

/**
 * Node refuses a request line and headers over 16 KB (431) before the app sees them; huge values
 * stay under that, with room for what fetch adds.
 */
const MAX_HEAD_BYTES = 12 * 1024;

type Schema = Record<string, unknown>;

interface DocumentParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  example?: unknown;
  schema?: Schema;
}

interface DocumentOperation {
  parameters?: DocumentParameter[];
  requestBody?: { content: Record<string, { schema?: Schema }> };
  security?: Record<string, string[]>[];
}

interface OpenApiDocument {
  paths: Record<string, Record<string, DocumentOperation>>;
  components: { schemas: Record<string, Schema> };
}

/** Who may call an operation, read from its security requirements. */
type Audience = 'public' | 'key' | 'admin';

interface Operation {
  method: string;
  template: string;
  name: string;
  parameters: DocumentParameter[];
  bodies: Record<string, Schema | undefined>;
  audience: Audience;
}

interface Credential {
  label: string;
  headers: Record<string, string>;
  /** Which audience this credential is valid for, if any. */
  validFor: Audience | null;
}

interface FuzzedRequest {
  path: string;
  headers: Record<string, string>;
  credential: Credential;
  body?: string;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);

const environment = testEnvironment();
// The operations name the tests, so the app starts and serves its document while the file is
// collected.
const app = await startTestApp(environment.config()).catch(async (error: unknown) => {
  await environment.cleanup();
  throw error;
});

afterAll(async () => {
  await app.close();
  await environment.cleanup();
});

const document = (await (await app.request('/api/openapi.json')).json()) as OpenApiDocument;
const operations = documentedOperations(document);

/** Values for parameters of these names: the catalogue's own (loaded below) and near misses. */
const fixtureValues: Record<string, string[]> = {
  slug: ['acme.io', 'acme', 'acme.enterprise', 'multi', 'multi.team', 'nopages.io', 'ACME.IO'],
  version: ['20250105', '20250212', '20250231', '20991231'],
  quarter: ['2025Q1', '2025q1', '2025Q5'],
  month: ['2025M01', '202502', '2025m2', '202513'],
  week: ['2025W02', '2020W53', '2021W53'],
  period: ['20250105', '2025Q1', '2025M02', '202501', '2025W06', 'last-week'],
};
let credentials: Credential[] = [];

beforeAll(async () => {
  const keys = app.app.get(ApiKeysService);
  await ingestAndProject(app, [
    records.company('acme.io', { name: 'Acme' }),
    records.company('multi.io', { name: 'Multi' }),
    records.company('nopages.io', { name: 'Nopages' }),
    records.page('acme.io'),
    records.page('acme.io', 'enterprise'),
    records.page('multi.io', 'team'),
    records.page('multi.io', 'business'),
    records.scrape('acme.io', '', '20250105'),
    records.scrape('acme.io', '', '20250212'),
    records.pricing('acme.io', '', '20250105', 10),
    records.pricing('acme.io', '', '20250212', 12),
  ]);
  fixtureValues.batchId = [await app.ingest([records.company('acme.io', { name: 'Acme' })])];
  // The admin routes' {id}: a key that may be revoked and read at will.
  fixtureValues.id = [(await keys.create({ name: 'target', plan: 'free', scopes: ['read'] })).id];
  const revoked = await keys.create({ name: 'revoked', plan: 'enterprise', scopes: ['read'] });
  await keys.revoke(revoked.id);
  credentials = await credentialsFor(app, revoked.key);
});

describe('every documented operation, driven with generated bad input', () => {
  it('the served document lists the operations this file fuzzes', () => {
    expect(operations.map((operation) => operation.name)).toEqual(
      expect.arrayContaining([
        'POST /v1/ingest/records',
        'GET /v1/api/companies',
        'GET /v1/api/pricing/{slug}',
        'POST /v1/admin/keys',
        'DELETE /v1/admin/keys/{id}',
      ]),
    );
  });

  it.each(operations)(
    '$name never answers 5xx, and every answer is documented and matches its schema',
    async (operation) => {
      const validator = await openApiValidator(app.baseUrl);
      await fc.assert(
        fc.asyncProperty(requestFor(operation), async (request) => {
          const url = `${app.baseUrl}${request.path}`;
          // The generator must hit the operation it targets, or nothing would be validated.
          expect(validator.route(operation.method, new URL(url).pathname)?.template).toBe(
            operation.template,
          );
          const response = await app.request(request.path, {
            method: operation.method,
            headers: { ...request.credential.headers, ...request.headers },
            body: request.body,
          });
          await response.arrayBuffer();
          expect(response.status, `${operation.name} answered ${response.status}`).toBeLessThan(
            500,
          );
          if (
            operation.audience !== 'public' &&
            request.credential.validFor !== operation.audience
          ) {
            // No credential for this audience, no success: whatever else the request carried.
            expect(response.status).toBeGreaterThanOrEqual(400);
          }
        }),
        { numRuns: RUNS_PER_OPERATION },
      );
    },
  );
});

function documentedOperations(served: OpenApiDocument): Operation[] {
  return Object.entries(served.paths).flatMap(([template, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.has(method))
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        template,
        name: `${method.toUpperCase()} ${template}`,
        parameters: operation.parameters ?? [],
        bodies: Object.fromEntries(
          Object.entries(operation.requestBody?.content ?? {}).map(([type, media]) => [
            type,
            media.schema,
          ]),
        ),
        audience: audienceOf(operation),
      })),
  );
}

function audienceOf(operation: DocumentOperation): Audience {
  const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
  if (schemes.length === 0) return 'public';
  return schemes.includes('adminToken') ? 'admin' : 'key';
}

/** Valid keys of every kind, the admin token, and credentials that must be refused. */
async function credentialsFor(testApp: TestApp, revokedKey: string): Promise<Credential[]> {
  const read = await testApp.createKey(['read']);
  const free = await testApp.createKey(['read'], 'free');
  const ingest = await testApp.createKey(['ingest']);
  const admin = environment.env.ADMIN_TOKEN as string;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  return [
    { label: 'none', headers: {}, validFor: null },
    { label: 'read key', headers: bearer(read), validFor: 'key' },
    { label: 'read key as X-API-Key', headers: { 'x-api-key': read }, validFor: 'key' },
    { label: 'free plan key', headers: bearer(free), validFor: 'key' },
    { label: 'ingest key', headers: bearer(ingest), validFor: 'key' },
    { label: 'admin token', headers: bearer(admin), validFor: 'admin' },
    { label: 'revoked key', headers: bearer(revokedKey), validFor: null },
    { label: 'key with a character more', headers: bearer(`${read}x`), validFor: null },
    { label: 'key upper-cased', headers: bearer(read.toUpperCase()), validFor: null },
    { label: 'admin token cut short', headers: bearer(admin.slice(0, -1)), validFor: null },
    { label: 'bearer without token', headers: { authorization: 'Bearer' }, validFor: null },
    { label: 'basic auth', headers: { authorization: 'Basic dXNlcjpwYXNz' }, validFor: null },
    { label: 'two tokens', headers: { authorization: `Bearer ${read} ${read}` }, validFor: null },
    { label: 'garbage X-API-Key', headers: { 'x-api-key': "' OR 1=1 --" }, validFor: null },
    { label: 'huge bearer', headers: bearer(`pi_${'a'.repeat(4000)}`), validFor: null },
  ];
}

/** One request to `operation`: generated path, query string, headers, credential and body. */
function requestFor(operation: Operation): fc.Arbitrary<FuzzedRequest> {
  const pathParameters = operation.parameters.filter((parameter) => parameter.in === 'path');
  return fc
    .record({
      segments: fc.tuple(...pathParameters.map(pathSegment)),
      query: queryString(operation),
      headers: headers(operation),
      // Half the requests carry a valid credential, so that most get past authentication.
      credential: fc.oneof(
        fc.constantFrom(...credentials.filter((credential) => credential.validFor !== null)),
        fc.constantFrom(...credentials.filter((credential) => credential.validFor === null)),
      ),
      body: Object.keys(operation.bodies).length > 0 ? requestBody(operation) : fc.constant(null),
    })
    .map(({ segments, query, headers: generated, credential, body }) => {
      let path = operation.template.replace(/^\/v1/, '');
      pathParameters.forEach((parameter, index) => {
        path = path.replace(`{${parameter.name}}`, segments[index] as string);
      });
      return {
        path: `${path}${query}`,
        headers: { ...generated, ...(body ? { 'content-type': body.contentType } : {}) },
        credential,
        ...(body ? { body: body.text } : {}),
      };
    })
    .filter((request) => headBytes(request) <= MAX_HEAD_BYTES);
}

/** The size of the request line and headers, with the URL as fetch encodes it. */
function headBytes(request: FuzzedRequest): number {
  const { pathname, search } = new URL(`http://host${request.path}`);
  const headers = { ...request.credential.headers, ...request.headers };
  return Object.entries(headers).reduce(
    (total, [name, value]) => total + Buffer.byteLength(`${name}: ${value}\r\n`, 'latin1'),
    Buffer.byteLength(`${pathname}${search}`),
  );
}

/** Values a parameter may take: valid ones, near misses, and hostile strings. */
function parameterValue(parameter: DocumentParameter): fc.Arbitrary<string> {
  const schema = parameter.schema ?? {};
  const valid = [
    ...(fixtureValues[parameter.name] ?? []),
    ...[parameter.example, schema.example, schema.default].filter((value) => value !== undefined),
    ...((schema.enum as unknown[] | undefined) ?? []),
  ].map(String);
  const options: fc.Arbitrary<string>[] = [hostileString()];
  if (valid.length > 0) {
    options.push(
      fc.constantFrom(...valid),
      fc.tuple(fc.constantFrom(...valid), hostileString()).map(([value, tail]) => value + tail),
    );
  }
  if (typeof schema.pattern === 'string') {
    options.push(fc.stringMatching(new RegExp(schema.pattern)));
  }
  if (schema.type === 'integer' || schema.type === 'number') options.push(oddNumberText());
  return fc.oneof(...options);
}

/**
 * A path segment: a value percent-encoded as a client would, or raw bytes a client may send.
 * Empty, `.` and `..` segments are left out: they change the route before the request leaves.
 */
function pathSegment(parameter: DocumentParameter): fc.Arbitrary<string> {
  return fc
    .oneof(
      { weight: 4, arbitrary: parameterValue(parameter).map(encodeURIComponent) },
      { weight: 1, arbitrary: fc.constantFrom(...RAW_URL_FRAGMENTS) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(parameterValue(parameter), fc.constantFrom(...RAW_URL_FRAGMENTS))
          .map(([value, raw]) => encodeURIComponent(value) + raw),
      },
    )
    .filter((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

/** Documented parameters (repeated at times), unknown ones, and malformed pairs. */
function queryString(operation: Operation): fc.Arbitrary<string> {
  const documented = operation.parameters.filter((parameter) => parameter.in === 'query');
  const pair = (name: fc.Arbitrary<string>, value: fc.Arbitrary<string>) =>
    fc.oneof(
      {
        weight: 4,
        arbitrary: fc
          .tuple(name, value)
          .map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`),
      },
      { weight: 1, arbitrary: name.map(encodeURIComponent) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(name, value)
          .map(([n, v]) => `${encodeURIComponent(n)}[]=${encodeURIComponent(v)}`),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(name, fc.constantFrom(...RAW_URL_FRAGMENTS))
          .map(([n, raw]) => `${encodeURIComponent(n)}=${raw}`),
      },
    );
  const pairs: fc.Arbitrary<string>[] = [pair(hostileString(), hostileString())];
  for (const parameter of documented) {
    pairs.push(pair(fc.constant(parameter.name), parameterValue(parameter)));
  }
  const query = fc
    .tuple(
      fc.array(fc.oneof(...pairs), { minLength: 1, maxLength: 6 }),
      fc.constantFrom('&', '&&', ';'),
    )
    .map(([parts, separator]) => `?${parts.join(separator)}`);
  // A third without any, so that valid paths get past the query string to the handler.
  return fc.oneof({ weight: 1, arbitrary: fc.constant('') }, { weight: 2, arbitrary: query });
}

/** Headers a client might send, documented ones (If-None-Match) with odd values among them. */
function headers(operation: Operation): fc.Arbitrary<Record<string, string>> {
  const documented = operation.parameters.filter((parameter) => parameter.in === 'header');
  const entries: Record<string, fc.Arbitrary<string>> = {
    accept: fc.oneof(
      fc.constantFrom('application/json', '*/*', 'text/html', 'application/xml', 'image/*'),
      fc.constantFrom('application/json;q=0', 'text/event-stream', 'application/x-ndjson'),
      hostileHeaderValue(),
    ),
    'accept-encoding': fc.constantFrom('gzip', 'br', 'identity;q=0', 'x-unknown', '*;q=0'),
    'x-request-id': hostileHeaderValue(),
    'if-none-match': hostileHeaderValue(),
    'x-forwarded-for': fc.constantFrom('127.0.0.1', '::1', '999.999.999.999', 'unknown, ,'),
    'x-fuzz-header': hostileHeaderValue(),
  };
  for (const parameter of documented) {
    entries[parameter.name.toLowerCase()] = fc.oneof(
      fc.constantFrom('*', '"nope"', 'W/"nope"'),
      hostileHeaderValue(),
    );
  }
  const entry = fc.oneof(
    ...Object.entries(entries).map(([name, value]) => value.map((text) => [name, text] as const)),
  );
  return fc.array(entry, { maxLength: 4 }).map((chosen) => Object.fromEntries(chosen));
}

/**
 * A body for an operation that takes one: a value generated from the documented schema (at
 * times valid, with hostile values anywhere in it) or text a JSON parser must refuse, under a
 * documented content type or an odd one.
 */
function requestBody(operation: Operation): fc.Arbitrary<{ contentType: string; text: string }> {
  const documentedTypes = Object.keys(operation.bodies);
  const jsonSchema = operation.bodies['application/json'];
  const value = jsonSchema ? schemaValue(jsonSchema, 0) : hostileJson();
  // NDJSON carries the items of a JSON array body, one a line.
  const itemSchema = jsonSchema?.type === 'array' ? (jsonSchema.items as Schema) : undefined;
  const item = itemSchema ? schemaValue(itemSchema, 1) : value;
  const text = fc.oneof(
    { weight: 3, arbitrary: value.map((generated) => JSON.stringify(generated)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.array(item, { maxLength: 4 }), fc.array(oddJsonText(), { maxLength: 2 }))
        .map(([lines, broken]) =>
          [...lines.map((line) => JSON.stringify(line)), ...broken].join('\n'),
        ),
    },
    { weight: 1, arbitrary: oddJsonText() },
  );
  const contentType = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...documentedTypes) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/json; charset=utf-16',
        'application/json; charset=iso-8859-1',
        'Application/JSON',
        'application/json;;',
        'application/xml',
        'application/vnd.api+json',
        '*/*',
        'application/x-ndjson; charset=utf-8',
      ),
    },
    { weight: 1, arbitrary: hostileHeaderValue() },
  );
  return fc.record({ contentType, text });
}

/** A value shaped by `schema`, with hostile values in place of any part of it at times. */
function schemaValue(schema: Schema, depth: number): fc.Arbitrary<unknown> {
  // Deeper than any body the document describes: a schema that refers to itself stops here.
  if (depth > 6) return hostileJson();
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/components/schemas/', '');
    return schemaValue(document.components.schemas[name] ?? {}, depth);
  }
  const shaped: fc.Arbitrary<unknown>[] = [];
  const alternatives = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (alternatives) shaped.push(fc.oneof(...alternatives.map((alt) => schemaValue(alt, depth))));
  if (Array.isArray(schema.enum)) shaped.push(fc.constantFrom(...schema.enum));
  if (schema.example !== undefined) shaped.push(fc.constant(schema.example));
  const types = ([] as unknown[]).concat(schema.type ?? []);
  for (const type of types) {
    if (type === 'object' && schema.properties) {
      const properties = Object.fromEntries(
        Object.entries(schema.properties as Record<string, Schema>).map(([key, property]) => [
          key,
          schemaValue(property, depth + 1),
        ]),
      );
      shaped.push(
        fc.record(properties),
        fc.record(properties, { requiredKeys: [] }),
        fc
          .tuple(fc.record(properties), hostileString(), hostileJson())
          .map(([object, key, extra]) => ({ ...object, [key]: extra })),
      );
    } else if (type === 'array') {
      const items = schemaValue((schema.items as Schema | undefined) ?? {}, depth + 1);
      shaped.push(fc.array(items, { minLength: 1, maxLength: 3 }), fc.constant([]));
    } else if (type === 'string') {
      shaped.push(
        typeof schema.pattern === 'string'
          ? fc.stringMatching(new RegExp(schema.pattern))
          : fc.string({ maxLength: 20 }),
      );
    } else if (type === 'integer') shaped.push(fc.integer());
    else if (type === 'number') shaped.push(fc.double({ noNaN: true, noDefaultInfinity: true }));
    else if (type === 'boolean') shaped.push(fc.boolean());
    else if (type === 'null') shaped.push(fc.constant(null));
  }
  if (shaped.length === 0) return hostileJson();
  return fc.oneof(
    { weight: 4, arbitrary: fc.oneof(...shaped) },
    { weight: 1, arbitrary: hostileJson() },
  );
}
