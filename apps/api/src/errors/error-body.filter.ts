import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { CodedError, isRedisUnavailable, ServiceUnavailable } from '#app/contracts';
import { isDatabaseUnavailable, isStatementCancelled } from '#app/persistence';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, errorStatus, type ErrorDescription } from './error-body.js';
import { errorShapeOf } from './error-shape.js';

/** Anything thrown, as the documented error description; internals never leave the process. */
export function describeError(exception: unknown): ErrorDescription {
  const coded = exception instanceof CodedError ? exception : outageOf(exception);
  if (coded) {
    return {
      status: coded.status,
      code: coded.code,
      message: coded.message,
      details: coded.details,
    };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    return { status, code: errorStatus(status).code, message: exception.message };
  }
  // Fastify's own errors (unparsable JSON, body too large, wrong content type) carry a 4xx.
  const fastifyError = exception as { statusCode?: number; message?: string; code?: string };
  if (typeof fastifyError?.statusCode === 'number' && fastifyError.statusCode < 500) {
    return {
      status: fastifyError.statusCode,
      code: errorStatus(fastifyError.statusCode).code,
      message: fastifyError.message ?? 'Bad request',
    };
  }
  return { status: 500, code: errorStatus(500).code, message: 'An unexpected error occurred' };
}

const RETRY_AFTER_SECONDS = 5;

/**
 * Redis or the database down, restarting or cut off, as the library that owns each client
 * recognises it, or a statement past DATABASE_STATEMENT_TIMEOUT_MS: a typed ServiceUnavailable
 * (503, Retry-After).
 */
function outageOf(exception: unknown): ServiceUnavailable | null {
  return isRedisUnavailable(exception) ||
    isDatabaseUnavailable(exception) ||
    isStatementCancelled(exception)
    ? new ServiceUnavailable(RETRY_AFTER_SECONDS)
    : null;
}

const logger = new Logger('Errors');

/** Sends the documented body; logs a 500 with its stack and request id (the client gets the id). */
export function sendErrorReply(
  exception: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const description = describeError(exception);
  // Files and pricing document their own code for a failed data query.
  if (
    description.status === 500 &&
    (exception as Error)?.name === 'QueryFailedError' &&
    errorShapeOf(request) === 'coded'
  ) {
    description.code = 'DB_ERROR';
    description.message = 'A data query failed';
  }
  if (description.status === 503) {
    logger.warn(`request ${request.id}: ${description.message} (${(exception as Error)?.message})`);
  } else if (description.status >= 500) {
    logger.error(
      `request ${request.id} ${request.method} ${request.routeOptions?.url ?? request.url}: ${
        (exception as Error)?.stack ?? String(exception)
      }`,
    );
  }
  void reply.send(prepareErrorReply(description, request, reply));
}

/** Sets the status and Retry-After of an error answer; returns its documented body. */
function prepareErrorReply(
  description: ErrorDescription,
  request: FastifyRequest,
  reply: FastifyReply,
): Record<string, unknown> {
  const retryAfter = description.details?.retry_after;
  if (typeof retryAfter === 'number') void reply.header('retry-after', String(retryAfter));
  void reply.status(description.status);
  return errorBody(description, errorShapeOf(request), request.id);
}

/**
 * For an onSend hook: turns the answer about to leave into `error`'s, as the filter would have
 * sent it; returns the payload to send instead. Headers of the answer it replaces that describe
 * a body (ETag, Cache-Control) go.
 */
export function replaceWithError(
  error: CodedError,
  request: FastifyRequest,
  reply: FastifyReply,
): string {
  const body = prepareErrorReply(describeError(error), request, reply);
  void reply.removeHeader('etag');
  void reply.removeHeader('cache-control');
  void reply.header('content-type', 'application/json; charset=utf-8');
  return JSON.stringify(body);
}

/**
 * Fastify's router refuses a path it cannot decode (a malformed escape, broken UTF-8) before any
 * hook or filter runs: the same documented body, with the request id onSend would have added.
 */
export function sendFrameworkError(
  error: Error,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  void reply.header('x-request-id', request.id);
  sendErrorReply(error, request, reply);
}

/** Every error, including Fastify's own (Nest routes them here), leaves in the documented body. */
@Catch()
export class ErrorBodyFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendErrorReply(exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
  }
}
