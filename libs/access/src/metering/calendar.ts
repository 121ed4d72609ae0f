/** Calendar arithmetic of the credit month and the hourly window, all in UTC. */

export const HOUR_MS = 3_600_000;

/** The credit month `now` falls in, as `YYYY-MM` (UTC). */
export function creditMonth(now: Date): string {
  // Not toISOString().slice(0, 7): this runs on every request, and the long form costs more.
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** 00:00 UTC on the 1st of the month after `now`: when credits reset. */
export function nextCreditReset(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/** Whole seconds from `now` until `at`, rounded up so a client that waits that long is in time. */
export function secondsUntil(at: number, now: Date): number {
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}
