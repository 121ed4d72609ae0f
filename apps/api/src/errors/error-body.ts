import type { ErrorShape } from './error-shape.js';

/**
 * Each status the service answers: the `error` of its general shape (the category as the live
 * service writes it where it has one, else the HTTP reason phrase), and the code a coded answer
 * gets when nothing names a more precise one (a refusal of the framework's). The OpenAPI
 * document's enum of categories is these; a status missing here (a bug) is answered as the
 * nearest listed one, 400 or 500, never as one clients were not told of.
 */
const ERROR_STATUSES = {
  400: { category: 'Bad Request', code: 'BAD_REQUEST' },
  401: { category: 'Unauthorized', code: 'AUTH_INVALID' },
  403: { category: 'Forbidden', code: 'FORBIDDEN' },
  404: { category: 'Not Found', code: 'NOT_FOUND' },
  405: { category: 'Method Not Allowed', code: 'METHOD_NOT_ALLOWED' },
  408: { category: 'Request Timeout', code: 'REQUEST_TIMEOUT' },
  413: { category: 'Payload Too Large', code: 'PAYLOAD_TOO_LARGE' },
  414: { category: 'URI Too Long', code: 'URI_TOO_LONG' },
  415: { category: 'Unsupported Media Type', code: 'UNSUPPORTED_MEDIA_TYPE' },
  429: { category: 'Rate limit exceeded', code: 'RATE_LIMIT_EXCEEDED' },
  431: { category: 'Request Header Fields Too Large', code: 'HEADERS_TOO_LARGE' },
  500: { category: 'Internal Server Error', code: 'INTERNAL_ERROR' },
  503: { category: 'Service Unavailable', code: 'SERVICE_UNAVAILABLE' },
} as const satisfies Record<number, { category: string; code: string }>;

/** The general shape's categories, as the OpenAPI document lists them. */
export const GENERAL_ERROR_CATEGORIES = Object.values(ERROR_STATUSES).map(
  ({ category }) => category,
);

/** The category and default code of `status` (see ERROR_STATUSES). */
export function errorStatus(status: number): { category: string; code: string } {
  const statuses: Record<number, { category: string; code: string }> = ERROR_STATUSES;
  return statuses[status] ?? (status >= 500 ? ERROR_STATUSES[500] : ERROR_STATUSES[400]);
}

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
          error: errorStatus(error.status).category,
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
