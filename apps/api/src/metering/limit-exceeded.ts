import { secondsUntil, type MeterReading } from '#app/access';
import { ApiError } from '../errors/api-error.js';
import type { ErrorShape } from '../errors/error-shape.js';

/**
 * The 429 for a refused request, in the details its route family documents (docs/API.md,
 * "Credits and limits"): files and pricing answer INSUFFICIENT_CREDITS with the interface's
 * fields; every 429 has `limit`, `remaining`, `reset_at` and `retry_after` (which the error body
 * also puts at the top level and in Retry-After).
 */
export function limitExceeded(reading: MeterReading, shape: ErrorShape, now: Date): ApiError {
  const { retryAfter, resetAt } = retryTimes(reading.retryAfterMs, now);
  switch (reading.outcome) {
    case 'credits': {
      const message = `No credits left this month: they reset at ${resetAt}`;
      const limits = { limit: reading.credits.limit, remaining: 0, reset_at: resetAt };
      return new ApiError(429, 'INSUFFICIENT_CREDITS', message, {
        ...limits,
        ...(shape === 'coded' ? { required: 1, seconds_until_reset: retryAfter, message } : {}),
        retry_after: retryAfter,
      });
    }
    case 'hourly':
      return new ApiError(
        429,
        'RATE_LIMIT_EXCEEDED',
        `Hourly limit of ${reading.hourly.limit} requests reached; the window ends at ${resetAt}`,
        { limit: reading.hourly.limit, remaining: 0, reset_at: resetAt, retry_after: retryAfter },
      );
    case 'burst':
      return new ApiError(
        429,
        'BURST_LIMIT_EXCEEDED',
        `More than ${reading.burstPerSecond} requests a second; slow down`,
        { limit: reading.burstPerSecond, remaining: 0, reset_at: resetAt, retry_after: retryAfter },
      );
    case 'ok':
      throw new Error('limitExceeded called for an admitted request');
  }
}

/** The 429 for a client address past its failed authentications. */
export function tooManyFailedAuthentications(
  perMinute: number,
  waitMs: number,
  now: Date,
): ApiError {
  const { retryAfter, resetAt } = retryTimes(waitMs, now);
  return new ApiError(
    429,
    'TOO_MANY_FAILED_AUTHENTICATIONS',
    `More than ${perMinute} failed authentications a minute from this address`,
    { limit: perMinute, remaining: 0, reset_at: resetAt, retry_after: retryAfter },
  );
}

/** When a refused client may retry: whole seconds (at least 1), and that moment in ISO 8601. */
function retryTimes(waitMs: number, now: Date): { retryAfter: number; resetAt: string } {
  const retryAt = now.getTime() + waitMs;
  return {
    retryAfter: Math.max(1, secondsUntil(retryAt, now)),
    resetAt: new Date(retryAt).toISOString(),
  };
}
