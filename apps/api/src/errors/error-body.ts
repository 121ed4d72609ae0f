import { STATUS_CODES } from 'node:http';
import type { ErrorShape } from './error-shape.js';

/** `error` of the general shape: the category as the live service writes it. */
const CATEGORIES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Rate limit exceeded',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

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
          error: CATEGORIES[error.status] ?? STATUS_CODES[error.status] ?? 'Error',
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
