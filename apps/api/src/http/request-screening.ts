import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import { errorBody } from '../errors/error-body.js';
import { errorShapeOf } from '../errors/error-shape.js';
import { unreadableBody } from './request-bodies.js';
import { urlTooLong } from './request-limits.js';

/**
 * The security headers helmet sets with its defaults, worked out once: they do not vary by
 * request, and helmet's middleware (or @fastify/helmet, which builds that middleware anew for
 * every request) would work them out again for each one. Helmet's default Content-Security-Policy
 * fits the two HTML pages served (Swagger UI, the queue dashboard: scripts from this origin
 * only); the login page sets a stricter one of its own.
 */
function helmetDefaultHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet()({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * The first onRequest hook, synchronous: every answer carries the security headers, set before
 * anything else can answer, and a request the service will not read (its URL too long, its body
 * unreadable) is refused at once, in its route's error shape, before routing to Nest,
 * authentication or metering. It answers itself rather than throwing, because the routes Nest
 * does not own (the OpenAPI document, Swagger UI) would otherwise answer in Fastify's shape.
 */
export function screenRequests(fastify: FastifyInstance): void {
  const headers = helmetDefaultHeaders();
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.headers(headers);
    const refusal = urlTooLong(request) ?? unreadableBody(request);
    if (!refusal) return done();
    void reply.code(refusal.status).send(errorBody(refusal, errorShapeOf(request), request.id));
  });
}
