import { type BatchBody, jsonShapeProblem } from '#app/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error.js';
import { errorStatus, type ErrorDescription } from '../errors/error-body.js';
import { routeConfigEntry, WithRouteConfig } from './route-config.js';
import { invalidBody } from './validation.pipe.js';

/**
 * Request bodies (docs/API.md, "Limits"): every route takes at most DEFAULT_BODY_LIMIT_BYTES
 * unless it declares its own limit (BodyLimit), and refuses a longer body with 413 before
 * reading it whole. A JSON body is parsed and bounded here, once for every route (Nest's, the
 * MCP endpoint's, the queue dashboard's): it may nest MAX_JSON_DEPTH levels and hold
 * MAX_BODY_VALUES values, so every list in a body has a bound whatever the route checks next.
 * Only a route that takes batches (TakesBatches) reads NDJSON, and it reads either form as
 * bytes, parsed off the event loop (IngestService).
 */

/** A body no route but the batch one needs more of: a key, a webhook, an MCP message. */
export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024;

/** The values (objects, arrays and what they hold) a JSON body may hold in all. */
const MAX_BODY_VALUES = 10_000;

const BODY_LIMIT = 'bodyLimit';
const TAKES_BATCHES = 'takesBatches';

const NDJSON = 'application/x-ndjson';

declare module 'fastify' {
  interface FastifyContextConfig {
    [BODY_LIMIT]?: number;
  }
}

/** The route's body limit, in bytes, in place of DEFAULT_BODY_LIMIT_BYTES. */
export function BodyLimit(bytes: number): MethodDecorator {
  return WithRouteConfig({ [BODY_LIMIT]: bytes });
}

/** The route takes a batch of records, a JSON array or NDJSON, as unparsed bytes (BatchBody). */
export function TakesBatches(): MethodDecorator {
  return WithRouteConfig({ [TAKES_BATCHES]: true });
}

/**
 * Applies each route's declared body limit (an onRoute hook, which Fastify runs before it
 * builds the route: Nest passes a route's config through, not its body limit). Call it before
 * the routes are registered.
 */
export function applyDeclaredBodyLimits(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    const declared = route.config?.[BODY_LIMIT];
    if (declared !== undefined) route.bodyLimit = declared;
  });
}

/** Methods whose body Fastify never reads: Node drains it, however long, unless refused. */
const UNREAD_BODY_METHODS = new Set(['GET', 'HEAD']);

/**
 * What the parsers would not refuse before reading (screenRequests). A body on a GET (which no
 * route reads) over the default limit is 413 from its Content-Length, as on any other route; a
 * body in a content coding (gzip...) is 415: the service reads bodies as sent, and would take
 * the compressed bytes for JSON.
 */
export function unreadableBody(request: FastifyRequest): ErrorDescription | null {
  if (UNREAD_BODY_METHODS.has(request.method)) {
    if (Number(request.headers['content-length'] ?? 0) <= DEFAULT_BODY_LIMIT_BYTES) return null;
    return { status: 413, code: errorStatus(413).code, message: 'Request body is too large' };
  }
  const coding = request.headers['content-encoding']?.trim().toLowerCase();
  if (!coding || coding === 'identity') return null;
  return {
    status: 415,
    code: errorStatus(415).code,
    message: `A body in a content coding (${coding}) is not read: send it as it is`,
    details: { content_encoding: coding },
  };
}

/**
 * The body parsers of every route: JSON, and NDJSON where a route takes batches; any other
 * type is 415 (Fastify's plain-text parser goes too). Call it before any route or plugin is
 * registered (a plugin takes a copy of the parsers there are), with Nest's own body parsers off.
 */
export function parseBodies(fastify: FastifyInstance): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser<Buffer>(
    'application/json',
    { parseAs: 'buffer' },
    (request, bytes, done) => {
      if (takesBatches(request)) return done(null, { bytes, format: 'json' } satisfies BatchBody);
      parseJson(request, bytes.toString('utf8'), (error, value) => {
        if (error) return done(error);
        const problem = jsonShapeProblem(value, { maxValues: MAX_BODY_VALUES });
        if (problem)
          return done(invalidBody([{ field: problem.field, reasons: [problem.reason] }]));
        done(null, value);
      });
    },
  );
  fastify.addContentTypeParser<Buffer>(NDJSON, { parseAs: 'buffer' }, (request, bytes, done) => {
    if (!takesBatches(request)) return done(ndjsonNotTaken(request));
    done(null, { bytes, format: 'ndjson' } satisfies BatchBody);
  });
}

function takesBatches(request: FastifyRequest): boolean {
  return routeConfigEntry<boolean>(request, TAKES_BATCHES) === true;
}

function ndjsonNotTaken(request: FastifyRequest): ApiError {
  return new ApiError(
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    `${request.method} ${request.routeOptions.url} takes application/json, not ${NDJSON}`,
    { content_type: NDJSON },
  );
}
