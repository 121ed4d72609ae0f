import type { ErrorShape } from './error-shape.js';

/**
 * `error` of the general shape for each status the service answers: the category as the live
 * service writes it where it has one, else the HTTP reason phrase. The OpenAPI document's enum
 * is these values; a status missing here (a bug) is answered as the nearest listed category,
 * Bad Request or Internal Server Error, never one clients were not told of.
 */
export const GENERAL_ERROR_CATEGORIES = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  429: 'Rate limit exceeded',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
} as const satisfies Record<number, string>;

const categoryOf = (status: number): string =>
  (GENERAL_ERROR_CATEGORIES as Record<number, string>)[status] ??
  (status >= 500 ? GENERAL_ERROR_CATEGORIES[500] : GENERAL_ERROR_CATEGORIES[400]);

export interface ErrorDescription {
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** The documented body of `error` in `shape` (ErrorShapes says which a request takes). */
export function errorBody(
  error: ErrorDescription,
  shape: ErrorShape,
  requestId: string,
): Record<string, unknown> {
  const body: Record<string, unknown> =
    shape === 'coded'
      ? { error: error.message, code: error.code }
      : {
          error: categoryOf(error.status),
          message: error.message,
        };
  if (error.details) body.details = error.details;
  // Clients of the live service read retry_after at either level.
  if (error.details?.retry_after !== undefined) body.retry_after = error.details.retry_after;
  if (error.status >= 500 && error.status !== 503) {
    body.request_id = requestId;
    body.timestamp = new Date().toISOString();
  }
  return body;
}
