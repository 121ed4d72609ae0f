import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

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

/** Every answer carries the security headers, set before anything else can answer. */
export function addSecurityHeaders(fastify: FastifyInstance): void {
  const headers = helmetDefaultHeaders();
  fastify.addHook('onRequest', (_request, reply, done) => {
    void reply.headers(headers);
    done();
  });
}
