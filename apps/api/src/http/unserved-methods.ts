import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { errorBody, type ErrorDescription } from '../errors/error-body.js';
import { errorShapeOf } from '../errors/error-shape.js';
import { requestIdFor } from './request-id.js';

/**
 * A method no route serves (TRACE, PROPFIND, CONNECT, any other Node's parser reads) gets 405
 * in the documented error shape, with `Allow` naming the methods the path does serve when it
 * has any. A method some route serves keeps the 404 of an unknown route, and OPTIONS keeps its
 * 404 too: it is a browser's preflight, which the API never approves (docs/API.md, CORS).
 *
 * Call before any route is registered: the served methods are collected as routes are added.
 */
export function refuseUnservedMethods(fastify: FastifyInstance): void {
  const served = new Set<string>();
  fastify.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) served.add(method);
  });
  const isServed = (method: string) => served.has(method) || method === 'OPTIONS';

  /** The methods served on `path`, for `Allow`; empty for a path no route matches. */
  const allowedOn = (path: string): string[] =>
    [...served].filter((method) => fastify.findRoute({ method, url: path }) !== null).sort();

  fastify.addHook('onRequest', async (request, reply) => {
    if (isServed(request.method)) return;
    const allowed = allowedOn(request.url);
    if (allowed.length > 0) void reply.header('allow', allowed.join(', '));
    return reply
      .code(405)
      .send(
        errorBody(methodNotAllowed(request.method, allowed), errorShapeOf(request), request.id),
      );
  });

  // Node hands CONNECT (a proxy's tunnel request) to 'connect' listeners instead of routing
  // it, and without one closes the connection unanswered.
  fastify.server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    const path = request.url ?? '';
    // A tunnel names host:port; only a path (origin form) can have routes.
    const allowed = path.startsWith('/') ? allowedOn(path) : [];
    const requestId = requestIdFor(request);
    const body = JSON.stringify(
      errorBody(
        methodNotAllowed(request.method ?? 'CONNECT', allowed),
        fastify.errorShapes.ofPath(path),
        requestId,
      ),
    );
    const headers = [
      `HTTP/1.1 405 ${STATUS_CODES[405]}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `X-Request-Id: ${requestId}`,
      ...(allowed.length > 0 ? [`Allow: ${allowed.join(', ')}`] : []),
      'Connection: close',
    ];
    socket.on('error', () => socket.destroy());
    socket.end(`${headers.join('\r\n')}\r\n\r\n${body}`);
  });
}

function methodNotAllowed(method: string, allowed: string[]): ErrorDescription {
  return {
    status: 405,
    code: 'METHOD_NOT_ALLOWED',
    message: `The ${method} method is not served`,
    ...(allowed.length > 0 ? { details: { allow: allowed } } : {}),
  };
}
