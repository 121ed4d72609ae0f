import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { SECURITY_SCHEMES } from './decorators.js';

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

**Credits.** \`x-credit-cost\` on each operation states what one successful (2xx) call costs:
1 for the companies, pages, files and pricing reads, 0 for ingestion, administration and this
document. A 304 Not Modified is not charged.

**Errors.** The files and pricing routes answer \`{error, code, details?}\`, with \`code\` a stable
string; every other route answers \`{error, message, details?}\`, with \`error\` the category
(\`Bad Request\`, \`Unauthorized\`, \`Forbidden\`, \`Not Found\`, \`Internal Server Error\`,
\`Service Unavailable\`, ...). A 500 adds \`request_id\` and \`timestamp\`; a 503 adds \`retry_after\`
(also in \`details\` and as \`Retry-After\`).

**Caching.** Scrapes and extractions never change: a files or pricing answer addressed by a
version or by a period that has ended carries an \`ETag\` and \`Cache-Control\`, and
\`If-None-Match\` with that tag gives 304.

Every response carries \`X-Request-Id\` (the request's own when it sent a plain one).`;

const TAGS: [string, string][] = [
  ['Companies', 'The company catalogue'],
  ['Pages', 'Pricing page references'],
  ['Files', 'Historical scrape files, by version or period'],
  ['Pricing', 'Structured pricing extracted from a scrape'],
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
      {
        type: 'http',
        scheme: 'bearer',
        description: 'An API key as "Authorization: Bearer <key>" (recommended)',
      },
      SECURITY_SCHEMES.bearer,
    )
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'X-API-Key',
        description: 'An API key as "X-API-Key: <key>"',
      },
      SECURITY_SCHEMES.apiKey,
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
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

type ResponsesMap = Record<string, { headers?: Record<string, unknown> }>;
type PathItem = Record<string, { responses?: ResponsesMap }>;

/** Every response of every operation carries X-Request-Id. */
function addRequestIdHeader(document: OpenAPIObject): void {
  document.components = {
    ...document.components,
    headers: { ...document.components?.headers, 'X-Request-Id': REQUEST_ID_HEADER },
  };
  for (const item of Object.values(document.paths as Record<string, PathItem>)) {
    for (const operation of Object.values(item)) {
      for (const response of Object.values(operation.responses ?? {})) {
        response.headers = {
          'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
          ...response.headers,
        };
      }
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
                  info: { type: 'object' },
                  paths: { type: 'object' },
                },
              },
            },
          },
        },
      },
    } as never,
  };
}

/** The document of the app's routes (the app need not listen). */
export function createOpenApiDocument(app: INestApplication): OpenAPIObject {
  const document = SwaggerModule.createDocument(app, documentConfig());
  addDocumentOperation(document);
  addRequestIdHeader(document);
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
