import fc from 'fast-check';
import { MAX_BATCH_BYTES } from '#app/ingest';
import {
  hostileHeaderValue,
  hostileJson,
  hostileString,
  oddJsonText,
  oddNumberText,
  RAW_URL_FRAGMENTS,
} from './hostile-input.js';
import type { Hints, Schema, SchemaValues } from './fuzz-values.js';

/**
 * Requests for the fuzz test (fuzz.e2e.test.ts), one operation of the served OpenAPI document at
 * a time: path and query parameters, headers (credentials, client address, content type,
 * If-None-Match, ...) and bodies. Each part is valid-looking most of the time and hostile the
 * rest, so that most requests reach the route's own code and every refusal on the way is tried.
 */

/** What a caller needs to succeed: nothing, a key with a scope, or the admin token. */
export type Need = 'public' | 'read' | 'ingest' | 'admin';

export interface DocumentParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  example?: unknown;
  schema?: Schema;
}

interface DocumentOperation {
  parameters?: DocumentParameter[];
  requestBody?: { content: Record<string, { schema?: Schema }> };
  security?: Record<string, string[]>[];
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, DocumentOperation>>;
  components: { schemas: Record<string, Schema> };
}

export interface FuzzOperation {
  /** `GET /v1/api/companies/{slug}` */
  name: string;
  method: string;
  template: string;
  parameters: DocumentParameter[];
  /** The documented request body schemas by media type. */
  bodies: Record<string, Schema>;
  need: Need;
}

export interface Credential {
  label: string;
  headers: Record<string, string>;
  /** What it is accepted for: empty for a credential every route must refuse. */
  grants: ReadonlySet<Need>;
  /** Parameter values naming what only this credential may act on (its webhooks' ids). */
  owns?: Record<string, string[]>;
}

/** What the generators draw on besides the document. */
export interface FuzzContext {
  /** Bodies, from their schemas (with hints for fields of known names). */
  values: SchemaValues;
  /** Values for parameters of these names: the fixture's own, and near misses. */
  parameters: Hints;
  credentials: Credential[];
  /** ETags of answers the fixture catalogue gives, for If-None-Match. */
  etags: string[];
}

export interface FuzzRequest {
  operation: string;
  method: string;
  /** After `/v1`, with the query string. */
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  credential: Credential;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);

/**
 * Node refuses a request line and headers over 16 KB (431) before the app sees them; requests
 * stay under that, with room for what fetch adds (huge URLs still meet the 4 KB URL limit, 414).
 */
const MAX_HEAD_BYTES = 12 * 1024;

/** A JSON body over every route's size limit, the batch route's included (413). */
const OVERSIZED_BODY = JSON.stringify('x'.repeat(MAX_BATCH_BYTES));

/** Every operation of the document, with what a caller needs to succeed at it. */
export function documentedOperations(document: OpenApiDocument): FuzzOperation[] {
  return Object.entries(document.paths).flatMap(([template, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.has(method))
      .map(([method, operation]) => ({
        name: `${method.toUpperCase()} ${template}`,
        method: method.toUpperCase(),
        template,
        parameters: operation.parameters ?? [],
        bodies: Object.fromEntries(
          Object.entries(operation.requestBody?.content ?? {}).map(([type, media]) => [
            type,
            media.schema ?? {},
          ]),
        ),
        need: needOf(template, operation),
      })),
  );
}

function needOf(template: string, operation: DocumentOperation): Need {
  const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
  if (schemes.length === 0) return 'public';
  if (schemes.includes('adminToken')) return 'admin';
  // The document names the key, not its scope: the ingestion routes are the ones under /ingest.
  return template.startsWith('/v1/ingest/') ? 'ingest' : 'read';
}

/**
 * Whether a credential gets past authentication on an operation: the admin token on the admin
 * routes, any valid key on the others (a key without the scope or the plan's feature then gets
 * a 403, and some key routes need no scope).
 */
export function authenticates(credential: Credential, need: Need): boolean {
  if (need === 'public') return true;
  return need === 'admin'
    ? credential.grants.has('admin')
    : credential.grants.has('read') || credential.grants.has('ingest');
}

/** One request to `operation`. */
export function fuzzRequest(
  operation: FuzzOperation,
  context: FuzzContext,
): fc.Arbitrary<FuzzRequest> {
  const pathParameters = operation.parameters.filter((parameter) => parameter.in === 'path');
  const hasBody = Object.keys(operation.bodies).length > 0;
  // fetch sends no body with GET; a DELETE may carry one nobody asked for.
  const body = hasBody
    ? requestBody(operation, context)
    : operation.method === 'GET'
      ? fc.constant(null)
      : fc.oneof({ weight: 8, arbitrary: fc.constant(null) }, unexpectedBody());
  // The parameters depend on the caller (what it owns): built once for each caller.
  const built = new Map<Credential, fc.Arbitrary<GeneratedParts>>();
  const partsOf = (caller: Credential) => {
    let parts = built.get(caller);
    if (!parts) {
      parts = fc.record({
        credential: fc.constant(caller),
        segments: fc.tuple(
          ...pathParameters.map((parameter) => pathSegment(parameter, context, caller)),
        ),
        query: queryString(operation, context, caller),
        headers: headers(operation, context),
        clientAddress: clientAddress(),
        body,
      });
      built.set(caller, parts);
    }
    return parts;
  };
  return credential(operation, context)
    .chain(partsOf)
    .map(
      ({ segments, query, headers: generated, clientAddress: address, credential, body: sent }) => {
        let path = operation.template.replace(/^\/v1/, '');
        pathParameters.forEach((parameter, index) => {
          path = path.replace(`{${parameter.name}}`, segments[index] as string);
        });
        const request: FuzzRequest = {
          operation: operation.name,
          method: operation.method,
          path: `${path}${query}`,
          headers: {
            ...(address === null ? {} : { 'x-forwarded-for': address }),
            ...credential.headers,
            ...generated,
            ...(sent?.contentType === undefined ? {} : { 'content-type': sent.contentType }),
          },
          credential,
          ...(sent ? { body: sent.payload } : {}),
        };
        return Object.assign(request, { [fc.toStringMethod]: () => describeRequest(request) });
      },
    )
    .filter((request) => headBytes(request) <= MAX_HEAD_BYTES);
}

interface GeneratedParts {
  credential: Credential;
  segments: string[];
  query: string;
  headers: Record<string, string>;
  clientAddress: string | null;
  body: GeneratedBody | null;
}

/** The request as a failure report shows it: a huge body cut short. */
function describeRequest(request: FuzzRequest): string {
  const body =
    request.body === undefined
      ? ''
      : typeof request.body === 'string'
        ? `\n${request.body.length} characters: ${JSON.stringify(request.body.slice(0, 600))}`
        : `\n${request.body.length} bytes: ${Buffer.from(request.body.slice(0, 200)).toString('hex')}`;
  return `${request.method} ${request.path} (${request.credential.label})\n${JSON.stringify(request.headers)}${body}`;
}

/** The size of the request line and headers, with the URL as fetch encodes it. */
function headBytes(request: FuzzRequest): number {
  const { pathname, search } = new URL(`http://host${request.path}`);
  return Object.entries(request.headers).reduce(
    (total, [name, value]) => total + Buffer.byteLength(`${name}: ${value}\r\n`, 'latin1'),
    Buffer.byteLength(`${pathname}${search}`),
  );
}

/**
 * Mostly a credential the operation accepts; else one of another kind (a read key on ingestion,
 * a key on the admin routes, a plan without the feature) or one every route refuses.
 */
function credential(operation: FuzzOperation, context: FuzzContext): fc.Arbitrary<Credential> {
  const accepted = context.credentials.filter((candidate) => candidate.grants.has(operation.need));
  const otherKinds = context.credentials.filter(
    (candidate) => candidate.grants.size > 0 && !candidate.grants.has(operation.need),
  );
  const refused = context.credentials.filter((candidate) => candidate.grants.size === 0);
  return fc.oneof(
    ...[
      { weight: 10, credentials: accepted },
      { weight: 1, credentials: otherKinds },
      { weight: 1, credentials: refused },
    ]
      .filter(({ credentials }) => credentials.length > 0)
      .map(({ weight, credentials }) => ({ weight, arbitrary: fc.constantFrom(...credentials) })),
  );
}

/**
 * X-Forwarded-For, which the test app believes (it sits behind a trusted proxy): failed
 * authentications are bounded per client address, so spreading them over many keeps the
 * credentials that should pass from meeting that limit. At times odd, at times absent.
 */
function clientAddress(): fc.Arbitrary<string | null> {
  return fc.oneof(
    {
      weight: 20,
      arbitrary: fc
        .integer({ min: 0, max: 0xffff })
        .map((host) => `10.16.${host >> 8}.${host & 0xff}`),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'unknown, ,',
        '999.999.999.999',
        '::ffff:10.0.0.1',
        '[2001:db8::1]:443',
        '10.0.0.1, 10.0.0.2, 127.0.0.1',
        'x'.repeat(400),
      ),
    },
    { weight: 1, arbitrary: fc.constant(null) },
  );
}

/** A value for a parameter: valid-looking, a near miss, or hostile. */
function parameterValue(
  parameter: DocumentParameter,
  context: FuzzContext,
  caller: Credential,
): fc.Arbitrary<string> {
  const schema = parameter.schema ?? {};
  const owned = caller.owns?.[parameter.name] ?? [];
  const valid = fc.oneof(
    {
      weight: 4,
      arbitrary: (context.parameters[parameter.name] ?? context.values.valid(schema)).map(String),
    },
    ...(owned.length === 0 ? [] : [{ weight: 4, arbitrary: fc.constantFrom(...owned) }]),
    ...(parameter.example === undefined
      ? []
      : [{ weight: 1, arbitrary: fc.constant(String(parameter.example)) }]),
  );
  const numeric = schema.type === 'integer' || schema.type === 'number';
  return fc.oneof(
    { weight: 8, arbitrary: valid },
    {
      weight: 1,
      arbitrary: fc.oneof(
        valid.map((value) => value.toUpperCase()),
        valid.map((value) => ` ${value}`),
        fc.tuple(valid, hostileString()).map(([value, tail]) => value + tail),
      ),
    },
    {
      weight: 1,
      arbitrary: numeric ? fc.oneof(oddNumberText(), hostileString()) : hostileString(),
    },
  );
}

/**
 * A path segment: a value percent-encoded as a client would, or raw bytes a client may send.
 * Empty, `.` and `..` segments are left out: they change the route before the request leaves.
 */
function pathSegment(
  parameter: DocumentParameter,
  context: FuzzContext,
  caller: Credential,
): fc.Arbitrary<string> {
  const value = parameterValue(parameter, context, caller);
  return fc
    .oneof(
      { weight: 8, arbitrary: value.map(encodeURIComponent) },
      { weight: 1, arbitrary: fc.constantFrom(...RAW_URL_FRAGMENTS) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(value, fc.constantFrom(...RAW_URL_FRAGMENTS))
          .map(([text, raw]) => encodeURIComponent(text) + raw),
      },
    )
    .filter((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

/**
 * Mostly the documented parameters (required ones always, others at times) with valid-looking
 * values; else a hostile mix: repeated and unknown parameters, names without values, `name[]`,
 * raw bytes, odd separators.
 */
function queryString(
  operation: FuzzOperation,
  context: FuzzContext,
  caller: Credential,
): fc.Arbitrary<string> {
  const documented = operation.parameters.filter((parameter) => parameter.in === 'query');
  const encode = (pairs: [string, string][]) =>
    pairs.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  const valid = fc
    .record(
      Object.fromEntries(
        documented.map((parameter) => [parameter.name, parameterValue(parameter, context, caller)]),
      ),
      {
        requiredKeys: documented
          .filter((parameter) => parameter.required)
          .map((parameter) => parameter.name),
      },
    )
    .map((values) => encode(Object.entries(values)));
  const name = fc.oneof(
    ...documented.map((parameter) => fc.constant(parameter.name)),
    hostileString(),
  );
  const value = fc.oneof(
    ...documented.map((parameter) => parameterValue(parameter, context, caller)),
    hostileString(),
  );
  const hostilePair = fc.oneof(
    { weight: 4, arbitrary: fc.tuple(name, value).map((pair) => encode([pair])[0] as string) },
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
  const hostile = fc
    .tuple(fc.array(hostilePair, { minLength: 1, maxLength: 6 }), fc.constantFrom('&', '&&', ';'))
    .map(([pairs, separator]) => pairs.join(separator));
  return fc
    .oneof(
      { weight: 5, arbitrary: valid.map((pairs) => pairs.join('&')) },
      { weight: 1, arbitrary: hostile },
    )
    .map((query) => (query === '' ? '' : `?${query}`));
}

/** If-None-Match: an ETag the fixture gives (so 304s happen), lists, `*`, or junk. */
function ifNoneMatch(context: FuzzContext): fc.Arbitrary<string> {
  const etag = fc.constantFrom(...context.etags);
  return fc.oneof(
    { weight: 4, arbitrary: etag },
    fc.constantFrom('*', '"nope"', 'W/"nope"', '""'),
    etag.map((tag) => `W/${tag}`),
    fc.tuple(etag, etag).map(([first, second]) => `${first}, ${second}`),
    hostileHeaderValue(),
  );
}

/** Headers a client might send besides its credential: common ones, with odd values at times. */
function headers(
  operation: FuzzOperation,
  context: FuzzContext,
): fc.Arbitrary<Record<string, string>> {
  const entries: Record<string, fc.Arbitrary<string>> = {
    accept: fc.oneof(
      fc.constantFrom('application/json', '*/*', 'text/html', 'application/xml', 'image/*'),
      fc.constantFrom('application/json;q=0', 'text/event-stream', 'application/x-ndjson'),
      hostileHeaderValue(),
    ),
    'accept-encoding': fc.constantFrom('gzip', 'br', 'identity;q=0', 'x-unknown', '*;q=0'),
    'accept-language': fc.oneof(fc.constantFrom('de-CH', '*', 'zz'), hostileHeaderValue()),
    'x-request-id': fc.oneof(fc.uuid(), hostileHeaderValue()),
    'if-none-match': ifNoneMatch(context),
    'if-modified-since': fc.oneof(
      fc.constant('Wed, 21 Oct 2015 07:28:00 GMT'),
      hostileHeaderValue(),
    ),
    cookie: fc.oneof(fc.constant('session=abc'), hostileHeaderValue()),
    'x-fuzz-header': hostileHeaderValue(),
  };
  const entry = fc.oneof(
    ...Object.entries(entries).map(([name, value]) => value.map((text) => [name, text] as const)),
  );
  const documentsIfNoneMatch = operation.parameters.some(
    (parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === 'if-none-match',
  );
  return fc
    .record({
      chosen: fc.array(entry, { maxLength: 3 }),
      // The routes that document it get it often, mostly with a tag that may match.
      ifNoneMatch: documentsIfNoneMatch
        ? fc.option(ifNoneMatch(context), { freq: 2 })
        : fc.constant(null),
    })
    .map(({ chosen, ifNoneMatch: tag }) => ({
      ...Object.fromEntries(chosen),
      ...(tag === null ? {} : { 'if-none-match': tag }),
    }));
}

interface GeneratedBody {
  contentType?: string;
  payload: string | Uint8Array;
}

/**
 * A body for an operation that takes one, under one of its documented media types: a value from
 * the schema (valid, or with hostile parts), text a JSON parser must refuse, bytes that are not
 * UTF-8, or more than the size limit; at times under an odd content type, or none.
 */
function requestBody(operation: FuzzOperation, context: FuzzContext): fc.Arbitrary<GeneratedBody> {
  const bodies = Object.entries(operation.bodies).map(([mediaType, schema]) =>
    fc.record({
      contentType: fc.oneof(
        { weight: 6, arbitrary: fc.constant(mediaType) },
        fc.constant(`${mediaType}; charset=utf-8`),
      ),
      payload: payloadFor(mediaType, schema, operation, context),
    }),
  );
  const documented = fc.oneof(...bodies);
  const oddType = fc.oneof(
    fc.constantFrom(
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
    ),
    hostileHeaderValue(),
  );
  return fc.oneof(
    { weight: 12, arbitrary: documented },
    {
      weight: 1,
      arbitrary: fc
        .tuple(documented, oddType)
        .map(([body, contentType]) => ({ ...body, contentType })),
    },
    // No Content-Type at all: sent as bytes, to which fetch adds none.
    { weight: 1, arbitrary: documented.map(({ payload }) => ({ payload: Buffer.from(payload) })) },
  );
}

/** A body for an operation that documents none. */
function unexpectedBody(): fc.Arbitrary<GeneratedBody> {
  return fc.record({
    contentType: fc.oneof(
      fc.constantFrom('application/json', 'application/x-ndjson', 'text/plain'),
      hostileHeaderValue(),
    ),
    payload: fc.oneof(
      { weight: 4, arbitrary: hostileJson().map((value) => JSON.stringify(value)) },
      { weight: 2, arbitrary: oddJsonText() },
      fc.constant(OVERSIZED_BODY),
    ),
  });
}

function payloadFor(
  mediaType: string,
  schema: Schema,
  operation: FuzzOperation,
  context: FuzzContext,
): fc.Arbitrary<string | Uint8Array> {
  const { values } = context;
  const broken = fc.oneof(
    { weight: 4, arbitrary: oddJsonText() },
    // Not UTF-8: a lone surrogate's bytes, overlong forms, bytes no encoding uses.
    fc
      .constantFrom(
        [0xed, 0xa0, 0x80],
        [0xc0, 0xae],
        [0xff, 0xfe, 0x00],
        [0x5b, 0x22, 0xf8, 0x22, 0x5d],
      )
      .map((bytes) => Uint8Array.from(bytes)),
    fc.constant(OVERSIZED_BODY),
  );
  if (mediaType === 'application/x-ndjson') {
    // NDJSON carries the items of the JSON array body, one a line.
    const arraySchema = operation.bodies['application/json'];
    const itemSchema = (arraySchema?.items ?? {}) as Schema;
    const line = fc.oneof(
      { weight: 3, arbitrary: values.valid(itemSchema).map((item) => JSON.stringify(item)) },
      { weight: 1, arbitrary: values.tainted(itemSchema).map((item) => JSON.stringify(item)) },
      { weight: 1, arbitrary: oddJsonText() },
    );
    return fc.oneof(
      {
        weight: 6,
        arbitrary: fc.array(line, { minLength: 1, maxLength: 5 }).map((lines) => lines.join('\n')),
      },
      { weight: 1, arbitrary: broken },
    );
  }
  return fc.oneof(
    { weight: 5, arbitrary: values.valid(schema).map((value) => JSON.stringify(value)) },
    { weight: 3, arbitrary: values.tainted(schema).map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: broken },
  );
}
