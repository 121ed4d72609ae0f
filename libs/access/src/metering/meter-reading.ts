import type { PlanDefinition } from '#app/config';

/** What a metering call decided. `credits` wins over `hourly` when both are exhausted. */
export type MeterOutcome = 'ok' | 'burst' | 'credits' | 'hourly';

/**
 * How a request is metered: counted and charged; bounded by the burst limit only; refused as a
 * charge would be, else bounded by the burst limit (`revalidate`: a charged route's answer known
 * to be an uncharged 304 before it is metered, so nothing is charged to be given back); or
 * neither (`read`).
 */
export type MeterMode = 'charge' | 'uncharged' | 'revalidate' | 'read';

/** A key's counters as one metering call left them. Times are milliseconds since the epoch. */
export interface MeterReading {
  outcome: MeterOutcome;
  /** When refused: milliseconds until the refusing limit admits a request again. */
  retryAfterMs: number;
  hourly: {
    limit: number;
    used: number;
    /** Null when no window is open: the next counted request opens one. */
    windowStartedAt: number | null;
    /** The open window's end, or an hour from now when none is open. */
    resetAt: number;
  };
  credits: { limit: number; used: number; resetAt: number };
  burstPerSecond: number;
}

/**
 * What a refund needs to give a charge back: its id (Redis records each charge under it, with
 * the hourly window it was counted in) and the month it was charged to.
 */
export interface ChargeTicket {
  apiKeyId: string;
  plan: PlanDefinition;
  creditMonth: string;
  chargeId: string;
}

export interface Metering {
  reading: MeterReading;
  /** Present when the request was counted: a non-2xx answer gives it back. */
  ticket: ChargeTicket | null;
}
