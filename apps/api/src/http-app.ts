import 'reflect-metadata';
import { Module, RequestMethod, type DynamicModule, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { ConfigModule, type AppConfig } from '#app/config';
import { RequestMeter } from '#app/access';
import {
  createLogger,
  installShutdownDeadline,
  loggingModule,
  Metrics,
  ObservabilityModule,
  observeHttp,
} from '#app/observability';
import { CheckpointStore, PersistenceModule, ReadDatabase } from '#app/persistence';
import type { FastifyInstance } from 'fastify';
import { Logger } from 'nestjs-pino';
import type { Logger as PinoInstance } from 'pino';
import { registerQueueDashboard } from './admin/queue-dashboard.js';
import { ApiModule } from './api.module.js';
import { ErrorBodyFilter, sendFrameworkError } from './errors/error-body.filter.js';
import { ErrorShapes } from './errors/error-shape.js';
import { AnswerCache } from './http/answer-cache.js';
import { EXPLORER_ROUTES } from './explorer/explorer.controller.js';
import { screenRequests } from './http/request-screening.js';
import { keepLaneAnswer, serveReadsAheadOfNest } from './http/read-lane.js';
import { addCachingHeaders, answerNotModified } from './http/http-caching.js';
import { requestIdFor } from './http/request-id.js';
import { refuseUnreadableRequests, URL_LIMIT_BYTES } from './http/request-limits.js';
import {
  applyDeclaredBodyLimits,
  DEFAULT_BODY_LIMIT_BYTES,
  parseBodies,
} from './http/request-bodies.js';
import { refuseUnservedMethods } from './http/unserved-methods.js';
import { RequestAdmission } from './auth/request-admission.js';
import { settleMetering } from './metering/metering.hook.js';
import { setupOpenApi } from './openapi/document.js';
import { registerMcpEndpoint } from './mcp/mcp-endpoint.js';

/** The whole request must arrive within this (Fastify would wait forever): a slow sender gets 408. */
export const REQUEST_TIMEOUT_MS = 60_000;

/** A route parameter may be as long as the URL itself may be. */
const MAX_PARAM_LENGTH = URL_LIMIT_BYTES;

@Module({})
class HttpProcessModule {}

function rootModule(config: AppConfig, logger: PinoInstance, extraModules: Type[]): DynamicModule {
  return {
    module: HttpProcessModule,
    imports: [
      ConfigModule.forRoot(config),
      loggingModule(logger),
      PersistenceModule.forRoot({ statementTimeout: true }),
      ObservabilityModule,
      CqrsModule.forRoot(),
      ApiModule,
      ...extraModules,
    ],
  };
}

/**
 * The HTTP application, initialised but not listening. `extraModules` lets the standalone
 * process host the worker beside it; it also handles signals itself (`shutdownHooks: false`).
 */
export async function createHttpApp(
  config: AppConfig,
  {
    extraModules = [],
    shutdownHooks = true,
  }: { extraModules?: Type[]; shutdownHooks?: boolean } = {},
): Promise<NestFastifyApplication> {
  const errorShapes = new ErrorShapes();
  const adapter = new FastifyAdapter({
    // A route that needs more declares it (BodyLimit).
    bodyLimit: DEFAULT_BODY_LIMIT_BYTES,
    requestTimeout: REQUEST_TIMEOUT_MS,
    clientErrorHandler: refuseUnreadableRequests(errorShapes),
    genReqId: requestIdFor,
    requestIdHeader: false,
    // Whom to believe about the client address, which bounds failed authentications.
    trustProxy: config.http.trustProxy,
    // The router would answer an undocumented 414 for a parameter over 100 characters, below
    // the longest slug a record may carry; the URL limit (urlTooLong, 414) bounds them all.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: sendFrameworkError,
  });
  const fastify = adapter.getInstance();
  // Before Nest registers its routes: each declares its error shape in its config.
  fastify.decorate('errorShapes', errorShapes);
  fastify.addHook('onRoute', (route) => errorShapes.learn(route));
  applyDeclaredBodyLimits(fastify);
  // Before any plugin (the queue dashboard) takes a copy of the root's parsers.
  parseBodies(fastify);
  refuseUnservedMethods(fastify);
  const logger = createLogger(config, extraModules.length > 0 ? 'api+worker' : 'api');
  const app = await NestFactory.create<NestFastifyApplication>(
    rootModule(config, logger, extraModules),
    adapter,
    // The body parsers are parseBodies' alone: Nest's would add a form parser to every route.
    { bufferLogs: true, bodyParser: false },
  );
  app.useLogger(app.get(Logger));
  // Security headers on every answer, and the refusals of what is not read. No CORS plugin:
  // browsers may not call the API (docs/API.md).
  screenRequests(app.getHttpAdapter().getInstance());
  // Probes and scrapers address /health/* and /metrics without the API version; the index
  // answers at the root and at /v1 itself, browsers look for /favicon.ico, and the explorer is a
  // page for people beside the API (its data calls go through /v1/api, metered).
  app.setGlobalPrefix('v1', {
    exclude: [
      'health/live',
      'health/ready',
      'metrics',
      { path: '/', method: RequestMethod.GET },
      { path: 'v1', method: RequestMethod.GET },
      { path: 'favicon.ico', method: RequestMethod.GET },
      ...EXPLORER_ROUTES.map((path) => ({ path, method: RequestMethod.GET })),
    ],
  });
  app.useGlobalFilters(new ErrorBodyFilter());
  // GET /v1/api/openapi.json (public) and Swagger UI at /v1/docs.
  setupOpenApi(app);
  await registerQueueDashboard(app, config);
  // The MCP server at /mcp (docs/analysts.md, MCP): its tools call the routes above in-process.
  registerMcpEndpoint(app);
  configureFastify(fastify, app);
  observeHttp(fastify, app.get(Metrics), logger);
  // Without useProcessExit Nest re-raises the signal after its hooks: exit 143, not 0.
  if (shutdownHooks) {
    app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
    installShutdownDeadline(config.shutdownGraceMs, logger);
  }
  await app.init();
  return app;
}

function configureFastify(fastify: FastifyInstance, app: NestFastifyApplication): void {
  const meter = app.get(RequestMeter);
  const metrics = app.get(Metrics);
  const answers = app.get(AnswerCache);
  const reads = app.get(ReadDatabase);
  // Each read has its reads go to one database (a replica or the primary), chosen on its first.
  if (reads.hasReplicas) {
    fastify.addHook('onRequest', (request, _reply, done) =>
      request.method === 'GET' ? reads.withinRequest(done) : done(),
    );
  }
  serveReadsAheadOfNest(
    fastify,
    app.get(RequestAdmission),
    app.get(CheckpointStore),
    answers,
    reads,
  );
  fastify.addHook('onSend', async (request, reply, payload) => {
    void reply.header('x-request-id', request.id);
    // RFC 6750: a refused request learns the scheme that would be accepted.
    if (reply.statusCode === 401) void reply.header('www-authenticate', 'Bearer');
    addCachingHeaders(request, reply, payload);
    keepLaneAnswer(answers, request, reply, payload);
    // After the answer is kept: a 304, which is not charged, carries no body to keep.
    const sent = answerNotModified(request, reply, payload);
    return settleMetering(meter, metrics, request, reply, sent);
  });
}
