import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger as PinoInstance } from 'pino';
import type { Metrics } from './metrics.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The id of the API key that authenticated the request, for the request log line. */
    apiKeyId?: string;
  }
}

/** The route template (`/v1/api/companies/:slug`), never the raw path: bounded label values. */
function routeOf(request: FastifyRequest): string {
  return request.routeOptions?.url ?? 'unmatched';
}

/**
 * After each answer: one log line (request id, method, route, status, latency, key id; never the
 * key or any header) and the request metrics.
 */
export function observeHttp(
  fastify: FastifyInstance,
  metrics: Metrics,
  logger: PinoInstance,
): void {
  fastify.addHook('onResponse', async (request, reply) => {
    const route = routeOf(request);
    const status = reply.statusCode;
    const latencyMs = reply.elapsedTime;
    metrics.httpRequests.inc({ route, method: request.method, status });
    metrics.httpDuration.observe({ route, method: request.method }, latencyMs / 1000);
    logger.info(
      {
        req_id: request.id,
        method: request.method,
        route,
        status,
        latency_ms: Math.round(latencyMs * 100) / 100,
        key_id: request.apiKeyId ?? null,
      },
      'request completed',
    );
  });
}
