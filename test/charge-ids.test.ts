import { randomUUID } from 'node:crypto';
import { AccessRedis, RequestMeter, type ChargeTicket } from '#app/access';
import type { PlanDefinition } from '#app/config';
import { afterAll, describe, expect, it } from 'vitest';
import { testEnvironment } from './support/test-environment.js';

// The metering scripts on a real Redis: a charge is given back by its id, once; and the
// one-second deadline of a metering call is Redis's to miss, not the API process's.
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
// Redis expires the counters by the real clock: every moment these tests name is in the future.
const now = new Date(`${new Date().getUTCFullYear() + 1}-11-22T10:00:00.000Z`);

async function charge(keyId: string): Promise<ChargeTicket> {
  const { ticket } = await meter.meter(keyId, plan, 'charge', now);
  return ticket!;
}

async function counters(keyId: string): Promise<{ hourly: number; credits: number }> {
  const { reading } = await meter.meter(keyId, plan, 'read', now);
  return { hourly: reading.hourly.used, credits: reading.credits.used };
}

describe('a charge id', () => {
  it('is new for every charge, and only charges get one', async () => {
    const keyId = randomUUID();
    const [first, second] = [await charge(keyId), await charge(keyId)];
    expect(first.chargeId).not.toBe(second.chargeId);
    for (const mode of ['uncharged', 'read'] as const) {
      expect((await meter.meter(keyId, plan, mode, now)).ticket).toBeNull();
    }
  });

  it('gives its charge back once, however many times it is refunded', async () => {
    const keyId = randomUUID();
    const [kept, refunded] = [await charge(keyId), await charge(keyId)];
    const readings = await Promise.all(
      Array.from({ length: 5 }, () => meter.refund(refunded, now)),
    );
    expect(readings.map((reading) => reading.credits.used)).toEqual([1, 1, 1, 1, 1]);
    expect(await meter.refund(refunded, now)).toMatchObject({
      hourly: { used: 1 },
      credits: { used: 1 },
    });
    expect(await counters(keyId)).toEqual({ hourly: 1, credits: 1 });
    expect(kept.chargeId).not.toBe(refunded.chargeId);
  });

  it('that Redis never counted gives nothing back', async () => {
    const keyId = randomUUID();
    const counted = await charge(keyId);
    const after = await meter.refund({ ...counted, chargeId: randomUUID() }, now);
    expect(after.credits.used).toBe(1);
    expect(after.hourly.used).toBe(1);
    expect(await counters(keyId)).toEqual({ hourly: 1, credits: 1 });
  });

  it('is recorded under the key’s hash tag, for five minutes at most, and forgotten once given back', async () => {
    const keyId = randomUUID();
    const ticket = await charge(keyId);
    const record = redis.meterKey(keyId, `charge:${ticket.chargeId}`);
    // The key id is the hash tag of every counter of the key (see metering.test.ts).
    expect(record).toContain(`{${keyId}}`);
    const ttl = await redis.connection.pttl(record);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(5 * 60_000);
    await meter.refund(ticket, now);
    expect(await redis.connection.exists(record)).toBe(0);
  });
});

/** Holds the event loop, as a burst of requests being parsed and authenticated does. */
function keepBusy(milliseconds: number): void {
  const until = Date.now() + milliseconds;
  while (Date.now() < until) {
    // Busy on purpose: nothing else may run.
  }
}

describe('a metering call while the event loop is busy past the deadline', () => {
  // A Redis that really stalls is answered 503 (test/redis-outage.test.ts).
  it('is answered with the reply Redis sent in time, and charged once', async () => {
    const keyId = randomUUID();
    // Connected and the script loaded, so the call below is one round trip.
    await counters(keyId);

    const charging = meter.meter(keyId, plan, 'charge', now);
    keepBusy(1_500);

    const { ticket, reading } = await charging;
    expect(ticket).not.toBeNull();
    expect(reading.credits.used).toBe(1);
    expect(await counters(keyId)).toEqual({ hourly: 1, credits: 1 });
  });
});
