import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Controller, Get, Header, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AppConfig } from '#app/config';
import type { FastifyReply } from 'fastify';
import { EXPLORER_PAGE, EXPLORER_STYLES } from './explorer-page.js';

/** Where the explorer and its assets answer: outside /v1, so neither metered nor counted. */
const EXPLORER_PATH = 'explorer';
const ASSETS = `${EXPLORER_PATH}/assets`;

/** The explorer's routes, which the global `/v1` prefix leaves alone (http-app.ts). */
export const EXPLORER_ROUTES = [
  EXPLORER_PATH,
  `${ASSETS}/explorer.js`,
  `${ASSETS}/explorer.css`,
  `${ASSETS}/chart.umd.min.js`,
];

/**
 * Everything from this origin, and nothing else but the screenshots of the scrape files, which
 * live on their own hosts: `imageSources` (EXPLORER_IMAGE_SOURCES) names them. Data calls go to
 * this origin's API (connect-src 'self').
 */
function explorerSecurityPolicy(imageSources: readonly string[]): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    `img-src 'self' ${imageSources.join(' ')}`,
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The browser script sits beside this file as plain JavaScript: read from the source tree under
 * tests, from dist once built (tsconfig.build.json compiles it there with allowJs).
 */
const SCRIPT = readFileSync(
  join(dirname(fileURLToPath(import.meta.url)), 'assets', 'explorer.js'),
  'utf8',
);

/** Chart.js's self-contained build, from the installed package (a production dependency). */
const CHART_JS = readFileSync(
  join(dirname(createRequire(import.meta.url).resolve('chart.js')), 'chart.umd.min.js'),
  'utf8',
);

/**
 * `GET /explorer`: public, uncounted, outside the OpenAPI document (a page for people, like the
 * docs). It holds no data: the page asks for the visitor's key and calls the metered API with it.
 */
@ApiExcludeController()
@Controller()
export class ExplorerController {
  private readonly securityPolicy: string;

  constructor(config: AppConfig) {
    this.securityPolicy = explorerSecurityPolicy(config.explorer.imageSources);
  }

  @Get(EXPLORER_PATH)
  @Header('content-type', 'text/html; charset=utf-8')
  page(@Res({ passthrough: true }) reply: FastifyReply): string {
    return this.asset(reply, EXPLORER_PAGE);
  }

  @Get(`${ASSETS}/explorer.js`)
  @Header('content-type', 'text/javascript; charset=utf-8')
  script(@Res({ passthrough: true }) reply: FastifyReply): string {
    return this.asset(reply, SCRIPT);
  }

  @Get(`${ASSETS}/explorer.css`)
  @Header('content-type', 'text/css; charset=utf-8')
  styles(@Res({ passthrough: true }) reply: FastifyReply): string {
    return this.asset(reply, EXPLORER_STYLES);
  }

  @Get(`${ASSETS}/chart.umd.min.js`)
  @Header('content-type', 'text/javascript; charset=utf-8')
  chart(@Res({ passthrough: true }) reply: FastifyReply): string {
    return this.asset(reply, CHART_JS);
  }

  /** Every answer of the explorer carries its own policy in place of helmet's default one. */
  private asset(reply: FastifyReply, body: string): string {
    void reply
      .header('content-security-policy', this.securityPolicy)
      .header('cache-control', 'no-cache');
    return body;
  }
}
