import { randomUUID } from 'node:crypto';
import { AccessRedis, RequestMeter } from '#app/access';
import type { PlanDefinition } from '#app/config';
import { afterAll, describe, expect, it } from 'vitest';
import { testEnvironment } from './support/test-environment.js';

/*
 * The one-second deadline of metering calls is Redis's to miss. A process whose event loop is
 * busy past the deadline (hundreds of requests arriving at once) still takes the reply Redis
 * already sent, instead of answering 503 and giving the charge back; a Redis that really stalls
 * is covered by test/redis-outage.test.ts.
 */
const environment = testEnvironment();
const config = environment.config();
const redis = new AccessRedis(config);
const meter = new RequestMeter(redis, config);

afterAll(async () => {
  await redis.onApplicationShutdown();
  await environment.cleanup();
});

const plan: PlanDefinition = {
  name: 'test',
  requestsPerHour: 100,
  creditsPerMonth: 100,
  features: ['companies'],
};
// Redis expires the counters by the real clock: every moment this test names is in the future.
const now = new Date(`${new Date().getUTCFullYear() + 1}-11-22T10:00:00.000Z`);

/** Holds the event loop, as a burst of requests being parsed and authenticated does. */
function keepBusy(milliseconds: number): void {
  const until = Date.now() + milliseconds;
  while (Date.now() < until) {
    // Busy on purpose: nothing else may run.
  }
}

describe('a metering call while the event loop is busy past the deadline', () => {
  it('is answered with the reply Redis sent in time, and charged once', async () => {
    const keyId = randomUUID();
    // Connected and the script loaded, so the call below is one round trip.
    await meter.meter(keyId, plan, 'read', now);

    const charging = meter.meter(keyId, plan, 'charge', now);
    keepBusy(1_500);

    const { ticket, reading } = await charging;
    expect(ticket).not.toBeNull();
    expect(reading.credits.used).toBe(1);
    const { reading: after } = await meter.meter(keyId, plan, 'read', now);
    expect(after.credits.used).toBe(1);
    expect(after.hourly.used).toBe(1);
  });
});
