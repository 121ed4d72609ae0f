import type { MeterReading } from '#app/access';

const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString());

/** A key's counters as `GET /v1/api/usage` and the admin usage route show them. */
export function usageRepresentation(plan: string, reading: MeterReading) {
  const { hourly, credits } = reading;
  return {
    plan,
    hourly: {
      limit: hourly.limit,
      used: hourly.used,
      remaining: Math.max(0, hourly.limit - hourly.used),
      window_started_at: iso(hourly.windowStartedAt),
      // No open window: the next counted request opens one, ending an hour after it.
      reset_at: hourly.windowStartedAt === null ? null : iso(hourly.resetAt),
    },
    credits: {
      limit: credits.limit,
      used: credits.used,
      remaining: Math.max(0, credits.limit - credits.used),
      reset_at: iso(credits.resetAt),
    },
    burst: { limit_per_second: reading.burstPerSecond },
  };
}
