import { CodedError } from './coded-error.js';

/**
 * Redis or the database is down, restarting or cut off: not the request's fault, and the same
 * request may succeed shortly. Nothing was done (a metered read's charge is given back, as for
 * any answer but a 2xx).
 */
export class ServiceUnavailable extends CodedError {
  constructor(retryAfterSeconds: number) {
    super(
      503,
      'SERVICE_UNAVAILABLE',
      'A backing service is unavailable; nothing was done. Retry shortly',
      { retry_after: retryAfterSeconds },
    );
  }
}
