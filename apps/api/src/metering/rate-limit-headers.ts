import { secondsUntil, type MeterReading } from '#app/access';

/**
 * The headers every response to an authenticated request carries (docs/API.md, "Rate-limit and credit headers"): the
 * hourly window as X-RateLimit-* and as the IETF draft's RateLimit-Policy / RateLimit, and the
 * monthly credits as X-Credits-*. Reset times are Unix seconds.
 */
export function rateLimitHeaders(reading: MeterReading, now: Date): Record<string, string> {
  const { hourly, credits } = reading;
  const hourlyRemaining = Math.max(0, hourly.limit - hourly.used);
  return {
    'x-ratelimit-limit': String(hourly.limit),
    'x-ratelimit-remaining': String(hourlyRemaining),
    'x-ratelimit-reset': String(Math.ceil(hourly.resetAt / 1000)),
    'x-credits-limit': String(credits.limit),
    'x-credits-remaining': String(Math.max(0, credits.limit - credits.used)),
    'x-credits-reset': String(Math.ceil(credits.resetAt / 1000)),
    'ratelimit-policy': `"hourly";q=${hourly.limit};w=3600`,
    ratelimit: `"hourly";r=${hourlyRemaining};t=${secondsUntil(hourly.resetAt, now)}`,
  };
}
