import { randomUUID } from 'node:crypto';
import { AccessRedis, AuthFailureLimiter, RequestMeter } from '#app/access';
import { afterAll, describe, expect, it } from 'vitest';
import { testEnvironment } from './support/test-environment.js';

/*
 * Tests of the limit settings themselves: each test sets one limit and shows what that setting
 * does. Every other test runs at the defaults users get (test/metering.test.ts for the limits).
 */
const environment = testEnvironment();
const redis = new AccessRedis(environment.config());
const FREE = environment.config().planNamed('free')!;
// Redis expires the counters by the real clock: the instant named here is in the future.
const YEAR = new Date().getUTCFullYear() + 1;
const at = (iso: string) => new Date(iso);

afterAll(async () => {
  await redis.onApplicationShutdown();
  await environment.cleanup();
});

describe('the BURST_LIMIT_PER_SECOND and AUTH_FAILURES_PER_MINUTE settings', () => {
  const instant = at(`${YEAR}-11-22T10:00:00.000Z`);

  // Small sizes: the clock here stands still while Redis keys expire in real time.
  it.each([1, 6, 15, 19, 22, 30, 70, 99])(
    'BURST_LIMIT_PER_SECOND=%i admits exactly that many at one instant',
    async (size) => {
      const sized = new RequestMeter(
        redis,
        environment.config({ BURST_LIMIT_PER_SECOND: String(size) }),
      );
      const key = randomUUID();
      const results = await Promise.all(
        Array.from({ length: size + 5 }, () => sized.meter(key, FREE, 'uncharged', instant)),
      );
      expect(results.filter((result) => result.reading.outcome === 'ok')).toHaveLength(size);
    },
  );

  it('BURST_LIMIT_PER_SECOND at its highest still admits requests (the bucket step stays within the stored precision)', async () => {
    const roomy = new RequestMeter(redis, environment.config({ BURST_LIMIT_PER_SECOND: '100000' }));
    // One key at one instant: 200 is ten times the default burst, far under this one.
    const key = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 200 }, () => roomy.meter(key, FREE, 'uncharged', instant)),
    );
    expect(results.every((result) => result.reading.outcome === 'ok')).toBe(true);
  });

  it('AUTH_FAILURES_PER_MINUTE at its highest still admits failures (the bucket step stays within the stored precision)', async () => {
    const roomy = new AuthFailureLimiter(
      redis,
      environment.config({ AUTH_FAILURES_PER_MINUTE: '1000000' }),
    );
    // One address at one instant: 1,000 failures, past the default's 30, far under this one.
    const address = `192.0.2.1-${randomUUID()}`;
    const waits = await Promise.all(
      Array.from({ length: 1000 }, () => roomy.recordFailure(address, instant)),
    );
    expect(waits.every((wait) => wait === 0)).toBe(true);
  });
});
