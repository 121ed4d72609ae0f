import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyRequest } from 'fastify';
import { errorBody, type ErrorDescription } from '../errors/error-body.js';
import type { ErrorShapes } from '../errors/error-shape.js';

/**
 * Refusals of requests too big or too slow to serve. The body limit is Fastify's own (413);
 * these cover the URL (414), the header section (431: past Node's 16 KB for the request line
 * and headers together) and a request that never finishes arriving (408), each in the
 * documented error shape.
 */

/** The path and query: no endpoint needs more than a few hundred bytes. */
export const URL_LIMIT_BYTES = 4 * 1024;

/** A URL past the limit: refused before routing, authentication or metering (screenRequests). */
export function urlTooLong(request: FastifyRequest): ErrorDescription | null {
  if (Buffer.byteLength(request.raw.url ?? '') <= URL_LIMIT_BYTES) return null;
  return {
    status: 414,
    code: 'URI_TOO_LONG',
    message: `The URL is longer than ${URL_LIMIT_BYTES} bytes`,
    details: { limit_bytes: URL_LIMIT_BYTES },
  };
}

const CLIENT_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: 'HEADERS_TOO_LARGE',
    message: 'The request line and headers are too large',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    code: 'REQUEST_TIMEOUT',
    message: 'The request did not arrive in time',
  },
};

/**
 * The HTTP server's `clientError`: Node could not read a request (headers too large, too slow,
 * not HTTP). There is no request to route, so the answer is written to the socket, which
 * then closes (Node's own behaviour, with our body instead of Fastify's), in the shape of the
 * path of the request line when Node read that far.
 */
export const refuseUnreadableRequests =
  (shapes: ErrorShapes) =>
  (error: ConnectionError, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const refusal = CLIENT_ERRORS[error.code ?? ''] ?? {
      status: 400,
      code: 'BAD_REQUEST',
      message: 'The request is not valid HTTP',
    };
    const shape = shapes.ofPath(requestedPath(error.rawPacket));
    const body = JSON.stringify(errorBody(refusal, shape, ''));
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\n` +
          `Content-Type: application/json; charset=utf-8\r\nX-Request-Id: ${randomUUID()}\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  };

/**
 * The path of the request line, when Node read that far.
 * (Node passes the bytes it read as a Buffer; Fastify's type says otherwise.)
 */
function requestedPath(rawPacket: unknown): string {
  if (!Buffer.isBuffer(rawPacket)) return '';
  const requestLine = rawPacket.toString('latin1', 0, URL_LIMIT_BYTES + 32).split('\r\n', 1)[0];
  return requestLine?.split(' ')[1] ?? '';
}
