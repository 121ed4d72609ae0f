import { Controller, Get, Headers, HttpCode, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { DOCS_PATH, OPENAPI_JSON_PATH } from '../openapi/document.js';

/** Where a newcomer goes from the service's root; paths, so they hold behind any host name. */
const LINKS = {
  docs: `/v1/${DOCS_PATH}`,
  openapi: `/v1/${OPENAPI_JSON_PATH}`,
  usage: '/v1/api/usage',
  companies: '/v1/api/companies',
  health: '/health/ready',
  explorer: '/explorer',
};

const INDEX = {
  service: 'Pricing intelligence data service',
  api_version: 'v1',
  base_url: '/v1',
  authentication: 'Authorization: Bearer <key> (or X-API-Key: <key>) on every /v1/api route',
  links: LINKS,
};

/**
 * `GET /v1` and `GET /`: public, uncounted, what the service is and where its docs are, as
 * JSON, or as a page for a browser (one that asks for HTML). Not in the OpenAPI document, like
 * the docs page: it is a signpost, not part of the API.
 */
@ApiExcludeController()
@Controller()
export class HomeController {
  @Get(['', 'v1'])
  index(
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): typeof INDEX | string {
    if (!accept?.includes('text/html')) return INDEX;
    void reply.header('content-type', 'text/html; charset=utf-8');
    return INDEX_PAGE;
  }

  /** Browsers ask every origin for one (the JSON document and Swagger UI name none): none. */
  @Get('favicon.ico')
  @HttpCode(204)
  favicon(): void {}
}

const INDEX_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${INDEX.service}</title>
<link rel="icon" href="data:,">
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; color: #1b1f24; }
  code { background: #f3f4f6; padding: 0 .25rem; border-radius: 4px; overflow-wrap: anywhere; }
  li { margin: .25rem 0; }
</style>
</head>
<body>
<main>
<h1>${INDEX.service}</h1>
<p>A read API over B2B software companies, their pricing pages, the historical scrape files of
those pages and the pricing structures extracted from them. Base URL: <code>/v1</code>.</p>
<p>Every <code>/v1/api</code> route needs an API key: <code>Authorization: Bearer &lt;key&gt;</code>
(or <code>X-API-Key: &lt;key&gt;</code>).</p>
<ul>
<li><a href="${LINKS.docs}">API documentation</a> (Swagger UI)</li>
<li><a href="${LINKS.openapi}">OpenAPI document</a> (JSON)</li>
<li><a href="${LINKS.explorer}">Pricing explorer</a> (search, charts, diffs; asks for your key)</li>
<li><a href="${LINKS.health}">Readiness</a></li>
</ul>
</main>
</body>
</html>
`;
