import type { MeterReading } from '#app/access';
import { describe, expect, it } from 'vitest';
import { rateLimitHeaders } from './rate-limit-headers.js';

const now = new Date('2026-11-22T10:00:00.000Z');

function reading(overrides: Partial<MeterReading['hourly']> = {}, creditsUsed = 120): MeterReading {
  return {
    outcome: 'ok',
    retryAfterMs: 0,
    hourly: {
      limit: 100,
      used: 58,
      windowStartedAt: now.getTime() - 1_800_000,
      resetAt: now.getTime() + 1_800_000,
      ...overrides,
    },
    credits: { limit: 1_000, used: creditsUsed, resetAt: Date.parse('2026-12-01T00:00:00Z') },
    burstPerSecond: 20,
  };
}

describe('rateLimitHeaders', () => {
  it('states the hourly window in both notations and the credits', () => {
    expect(rateLimitHeaders(reading(), now)).toEqual({
      'x-ratelimit-limit': '100',
      'x-ratelimit-remaining': '42',
      'x-ratelimit-reset': String(Date.parse('2026-11-22T10:30:00Z') / 1000),
      'x-credits-limit': '1000',
      'x-credits-remaining': '880',
      'x-credits-reset': String(Date.parse('2026-12-01T00:00:00Z') / 1000),
      'ratelimit-policy': '"hourly";q=100;w=3600',
      ratelimit: '"hourly";r=42;t=1800',
    });
  });

  it('rounds reset times up to the next whole second', () => {
    const headers = rateLimitHeaders(reading({ resetAt: now.getTime() + 1_500 }), now);
    expect(headers['x-ratelimit-reset']).toBe(String(Math.ceil((now.getTime() + 1_500) / 1000)));
    expect(headers.ratelimit).toBe('"hourly";r=42;t=2');
  });

  it('never shows a negative remaining count (a plan lowered below what was used)', () => {
    const headers = rateLimitHeaders(reading({ used: 150 }, 1_200), now);
    expect(headers['x-ratelimit-remaining']).toBe('0');
    expect(headers['x-credits-remaining']).toBe('0');
    expect(headers.ratelimit).toBe('"hourly";r=0;t=1800');
  });
});
