import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { ERROR_DESCRIPTIONS, SECURITY_SCHEMES } from './decorators.js';

/**
 * The OpenAPI document, generated from the controllers' decorators: served public at
 * `GET /v1/api/openapi.json`, shown by Swagger UI at `/v1/docs`, and written to a file by
 * write-document.ts for the linter.
 */

/** Where the document and the UI are served, below the global prefix `v1`. */
export const OPENAPI_JSON_PATH = 'api/openapi.json';
export const DOCS_PATH = 'docs';
const OPENAPI_VERSION = '3.1.0';

const DESCRIPTION = `Read API over SaaS pricing pages (companies, pricing pages, historical scrape
files, structured pricing), the ingestion endpoints that scraper pipelines call, and key
administration.

**Authentication.** Every operation but this document needs an API key, sent as
\`Authorization: Bearer <key>\` (recommended) or \`X-API-Key: <key>\`. The \`/v1/admin\` routes take
the operator's \`ADMIN_TOKEN\` as \`Authorization: Bearer <token>\` instead.

**Credits and limits.** \`x-credit-cost\` on each operation states what one successful (2xx)
call costs: 1 for the companies, pages, files and pricing reads (the pricing diff included), 0
for discovery (categories, file versions, pricing versions), usage, ingestion, administration and
this document. A call of cost 1 also counts in the key's hourly window, which
opens at its first counted call and ends an hour later; credits reset at 00:00 UTC on the 1st.
Only 2xx answers are charged: a 3xx (304 Not Modified included), 4xx or 5xx gives both back.
The answers a key does not pay for (a 3xx or 4xx, and every call of cost 0) are bounded by a
burst limit (20 a second by default; a charged 2xx never meets it), and failed authentications by
30 a minute per client address (an IPv6 address by its /64). Past a limit the answer
is 429 with \`Retry-After\` (the monthly credits' refusal wins when credits and window are both
spent).
Answers to a request with a valid key carry \`X-RateLimit-*\`, \`X-Credits-*\`,
\`RateLimit-Policy\` and \`RateLimit\`; \`GET /v1/api/usage\` shows the same counters.

**Errors.** The files, pricing and export routes answer \`{error, code, details?}\`, with \`code\` a stable
string; every other route answers \`{error, message, details?}\`, with \`error\` the category
(\`Bad Request\`, \`Unauthorized\`, \`Forbidden\`, \`Not Found\`, \`Rate limit exceeded\`,
\`Internal Server Error\`, \`Service Unavailable\`, ...) and no code: tell those errors apart by
status, category and the fields of \`details\`. A 500 adds \`request_id\` and \`timestamp\`; a 429 or
503 adds \`retry_after\` (also in \`details\` and as \`Retry-After\`).

**Caching.** Scrapes and extractions never change: a files or pricing answer addressed by a
version or by a period that has ended carries an \`ETag\` and \`Cache-Control\`, and
\`If-None-Match\` with that tag gives 304.

Every response carries \`X-Request-Id\` (the request's own when it sent a plain one).`;

const TAGS: [string, string][] = [
  ['Companies', 'The company catalogue'],
  ['Pages', 'Pricing page references'],
  ['Files', 'Historical scrape files, by version or period'],
  ['Pricing', 'Structured pricing extracted from a scrape'],
  [
    'Pricing analytics',
    'Across pages: plan search, side-by-side comparison, benchmarks and the price index over time, and export, on comparable monthly prices',
  ],
  ['Webhooks', 'Pricing changes pushed to a URL of yours, signed (a plan with webhooks)'],
  ['Usage', "The caller's plan, hourly window and credits (free)"],
  ['Ingestion', 'What scraper pipelines call (a key with the ingest scope; no credit)'],
  ['Admin', 'API key administration (ADMIN_TOKEN)'],
  ['Documentation', 'This document'],
];

function documentConfig(): Omit<OpenAPIObject, 'paths'> {
  const builder = new DocumentBuilder()
    .setOpenAPIVersion(OPENAPI_VERSION)
    .setTitle('Pricing Intelligence Data Service')
    .setDescription(DESCRIPTION)
    .setVersion('1.0.0')
    .addServer('/', 'The server that serves this document (paths include /v1)')
    .addBearerAuth(
      { type: 'http', description: 'An API key as "Authorization: Bearer <key>" (recommended)' },
      SECURITY_SCHEMES.bearer,
    )
    .addApiKey(
      { type: 'apiKey', name: 'X-API-Key', description: 'An API key as "X-API-Key: <key>"' },
      SECURITY_SCHEMES.apiKey,
    )
    .addBearerAuth(
      {
        type: 'http',
        description: 'The operator\'s ADMIN_TOKEN as "Authorization: Bearer <token>"',
      },
      SECURITY_SCHEMES.adminToken,
    );
  for (const [name, description] of TAGS) builder.addTag(name, description);
  return builder.build();
}

const REQUEST_ID_HEADER = {
  description: "The request's id: the X-Request-Id it sent (a plain token), or a new UUID",
  required: true,
  schema: { type: 'string' },
};

/** What the passes below read and write of an operation Nest generated. */
interface Operation {
  parameters?: { example?: unknown; schema?: { example?: unknown } }[];
  responses?: Record<string, { description?: string; headers?: Record<string, unknown> }>;
  security?: Record<string, string[]>[];
}

/** Every operation of the document, with its method. */
function operations(document: OpenAPIObject): [string, Operation][] {
  return Object.values(document.paths).flatMap((item) =>
    Object.entries(item as Record<string, Operation>),
  );
}

const INTEGER = { type: 'integer' };
const COUNT = { type: 'integer', minimum: 0 };
const TEXT = { type: 'string' };
const header = (description: string, schema: object) => ({ description, schema });

/** What every response to a request with a valid API key says about the key's limits. */
const METERING_HEADERS: Record<string, { description: string; schema: object }> = {
  'X-RateLimit-Limit': header('Requests allowed in the hourly window', INTEGER),
  'X-RateLimit-Remaining': header('Requests left in the hourly window', COUNT),
  'X-RateLimit-Reset': header(
    'When the hourly window ends (an hour from now if none is open) (Unix seconds)',
    INTEGER,
  ),
  'X-Credits-Limit': header('Credits per month', INTEGER),
  'X-Credits-Remaining': header('Credits left this month', COUNT),
  'X-Credits-Reset': header('When credits reset: 00:00 UTC on the 1st (Unix seconds)', INTEGER),
  'RateLimit-Policy': header(
    'The hourly window as the IETF draft writes it: "hourly";q=<limit>;w=3600',
    TEXT,
  ),
  RateLimit: header('Its state: "hourly";r=<remaining>;t=<seconds until the window ends>', TEXT),
};

/**
 * Every response carries X-Request-Id. The operations an API key calls also carry the key's
 * counters: only 2xx and 304 promise them, since a 401, a 429 for failed authentications, a 503
 * with Redis away, or a body refused before the key is checked (413, 415) has none.
 */
function addResponseHeaders(document: OpenAPIObject): void {
  document.components = {
    ...document.components,
    headers: {
      ...document.components?.headers,
      'X-Request-Id': REQUEST_ID_HEADER,
      ...METERING_HEADERS,
    },
  };
  const reference = (name: string) => ({ $ref: `#/components/headers/${name}` });
  for (const [, operation] of operations(document)) {
    const byApiKey = operation.security?.some(
      (requirement) => SECURITY_SCHEMES.apiKey in requirement,
    );
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      response.headers = { 'X-Request-Id': reference('X-Request-Id'), ...response.headers };
      if (!byApiKey || status === '401') continue;
      const promised = status.startsWith('2') || status === '304';
      for (const [name, header] of Object.entries(METERING_HEADERS)) {
        response.headers[name] = promised ? { ...header, required: true } : reference(name);
      }
    }
  }
}

/**
 * Nest writes a parameter's example into its schema, where OpenAPI 3.1 deprecates `example` and
 * where Dredd does not look for one (it refuses a path parameter without an example). Swagger UI,
 * Dredd and client generators read the Parameter Object's own `example`: it moves there.
 */
function hoistParameterExamples(document: OpenAPIObject): void {
  for (const [, operation] of operations(document)) {
    for (const parameter of operation.parameters ?? []) {
      if (parameter.schema?.example === undefined) continue;
      const { example, ...schema } = parameter.schema;
      parameter.example = example;
      parameter.schema = schema;
    }
  }
}

/** The document describes itself too: public, free. */
function addDocumentOperation(document: OpenAPIObject): void {
  document.paths[`/v1/${OPENAPI_JSON_PATH}`] = {
    get: {
      operationId: 'getOpenApiDocument',
      summary: 'This OpenAPI document',
      description: 'Public: no key, no credit, no rate limit.',
      tags: ['Documentation'],
      security: [],
      'x-credit-cost': 0,
      responses: {
        '200': {
          description: `An OpenAPI ${OPENAPI_VERSION} document`,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                additionalProperties: true,
                required: ['openapi', 'info', 'paths'],
                properties: {
                  openapi: { type: 'string' },
                  // Open objects: a bare `type: object` reads as an empty object to generators.
                  info: { type: 'object', additionalProperties: true },
                  paths: { type: 'object', additionalProperties: true },
                },
              },
            },
          },
        },
        // What any route can refuse (the decorated ones get these from ApiErrorResponses).
        '408': refusal(408),
        '414': refusal(414),
        '431': refusal(431),
      },
    } as never,
  };
}

/** A refusal given before any route runs, in the general error shape. */
function refusal(status: 408 | 413 | 414 | 415 | 431) {
  return {
    description: ERROR_DESCRIPTIONS[status],
    content: { 'application/json': { schema: { $ref: '#/components/schemas/GeneralError' } } },
  };
}

/**
 * Fastify reads the body of every request but a GET before the route runs, a DELETE's too
 * (none is asked for): one over the size limit is a 413, one of a type it does not parse a
 * 415, on every such operation. They all answer in the general shape (the coded routes are GETs).
 */
function addBodyRefusals(document: OpenAPIObject): void {
  for (const [method, operation] of operations(document)) {
    if (method === 'get' || !operation.responses) continue;
    operation.responses['413'] ??= refusal(413);
    operation.responses['415'] ??= refusal(415);
  }
}

/** The document of the app's routes (the app need not listen). */
export function createOpenApiDocument(app: INestApplication): OpenAPIObject {
  const document = SwaggerModule.createDocument(app, documentConfig());
  hoistParameterExamples(document);
  addDocumentOperation(document);
  addBodyRefusals(document);
  addResponseHeaders(document);
  return document;
}

/**
 * Serves the document at `/v1/api/openapi.json` and Swagger UI at `/v1/docs`. Call before
 * `app.init()`: the routes are Fastify's own, outside every guard. The document is built on the
 * first request.
 */
export function setupOpenApi(app: INestApplication): void {
  SwaggerModule.setup(DOCS_PATH, app, () => createOpenApiDocument(app), {
    useGlobalPrefix: true,
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    raw: ['json'],
    customSiteTitle: 'Pricing Intelligence API',
  });
}
