import { randomUUID } from 'node:crypto';
import {
  AccessRedis,
  AuthFailureLimiter,
  RequestMeter,
  type ChargeTicket,
  type MeterMode,
  type Metering,
} from '#app/access';
import type { PlanDefinition } from '#app/config';
import { afterAll, describe, expect, it } from 'vitest';
import { testEnvironment } from './support/test-environment.js';

// The Lua scripts on a real Redis, with the clock chosen by each test.
const environment = testEnvironment();
const config = environment.config();
const redis = new AccessRedis(config);
const meter = new RequestMeter(redis, config);
const authFailures = new AuthFailureLimiter(redis, config);

afterAll(async () => {
  await redis.onApplicationShutdown();
  await environment.cleanup();
});

const HOUR = 3_600_000;
// Redis expires the counters by the real clock: every moment these tests name is in the future.
const YEAR = new Date().getUTCFullYear() + 1;
/** The plans users get: every limit here is the shipped one (free: 100 an hour, 1,000 a month). */
const FREE = config.planNamed('free')!;
const ENTERPRISE = config.planNamed('enterprise')!;
const at = (iso: string) => new Date(iso);
const later = (start: Date, ms: number) => new Date(start.getTime() + ms);

/** `count` charges of a fresh key, 100 ms apart. */
async function charges(
  keyId: string,
  limits: PlanDefinition,
  start: Date,
  count: number,
): Promise<Metering[]> {
  const results: Metering[] = [];
  for (let index = 0; index < count; index += 1) {
    results.push(await meter.meter(keyId, limits, 'charge', later(start, index * 100)));
  }
  return results;
}

/**
 * `count` charges of a key from `start`, as many an hour as its plan admits: each hour's at the
 * same instant (they open a window together), an hour after the last.
 */
async function chargesOverHours(
  keyId: string,
  limits: PlanDefinition,
  start: Date,
  count: number,
): Promise<void> {
  for (let done = 0, hour = 0; done < count; hour += 1) {
    const thisHour = Math.min(limits.requestsPerHour, count - done);
    await Promise.all(
      Array.from({ length: thisHour }, () =>
        meter.meter(keyId, limits, 'charge', later(start, hour * HOUR)),
      ),
    );
    done += thisHour;
  }
}

describe('the hourly window', () => {
  it('opens at the first counted request and admits the limit until an hour later', async () => {
    const key = randomUUID();
    const start = at(`${YEAR}-11-22T10:00:00.000Z`);
    const results = await charges(key, FREE, start, 101);
    expect(results.map((result) => result.reading.outcome)).toEqual([
      ...Array<string>(100).fill('ok'),
      'hourly',
    ]);
    const refused = results[100]!.reading;
    expect(refused.hourly).toMatchObject({ used: 100, windowStartedAt: start.getTime() });
    expect(refused.hourly.resetAt).toBe(start.getTime() + HOUR);
    expect(refused.retryAfterMs).toBe(HOUR - 10_000);
    // A refused request is not counted anywhere.
    expect(refused.credits.used).toBe(100);

    const lastMoment = await meter.meter(key, FREE, 'charge', later(start, HOUR - 1));
    expect(lastMoment.reading.outcome).toBe('hourly');
    const next = await meter.meter(key, FREE, 'charge', later(start, HOUR));
    expect(next.reading.outcome).toBe('ok');
    expect(next.reading.hourly).toMatchObject({ used: 1, windowStartedAt: start.getTime() + HOUR });
    expect(next.reading.credits.used).toBe(101);
  });

  it('is not opened by a request that is only burst-limited or read', async () => {
    const key = randomUUID();
    const now = at(`${YEAR}-11-22T10:00:00.000Z`);
    for (const mode of ['uncharged', 'read'] as const) {
      const { reading, ticket } = await meter.meter(key, FREE, mode, now);
      expect(reading.outcome).toBe('ok');
      expect(ticket).toBeNull();
      expect(reading.hourly).toMatchObject({ used: 0, windowStartedAt: null });
      expect(reading.hourly.resetAt).toBe(now.getTime() + HOUR);
      expect(reading.credits.used).toBe(0);
    }
  });
});

describe('monthly credits', () => {
  it('reset at 00:00 UTC on the 1st, whatever the hourly window', async () => {
    const key = randomUUID();
    // All but two of the month's credits, over the day's earlier hours.
    await chargesOverHours(key, FREE, at(`${YEAR}-11-30T13:00:00.000Z`), 998);
    const lastDay = at(`${YEAR}-11-30T23:59:58.000Z`);
    const results = await charges(key, FREE, lastDay, 3);
    expect(results.map((result) => result.reading.outcome)).toEqual(['ok', 'ok', 'credits']);
    const refused = results[2]!.reading;
    expect(refused.credits).toEqual({
      limit: 1_000,
      used: 1_000,
      resetAt: Date.parse(`${YEAR}-12-01T00:00:00.000Z`),
    });
    expect(refused.retryAfterMs).toBe(
      Date.parse(`${YEAR}-12-01T00:00:00.000Z`) - lastDay.getTime() - 200,
    );

    const beforeMidnight = await meter.meter(
      key,
      FREE,
      'charge',
      at(`${YEAR}-11-30T23:59:59.999Z`),
    );
    expect(beforeMidnight.reading.outcome).toBe('credits');
    const newMonth = await meter.meter(key, FREE, 'charge', at(`${YEAR}-12-01T00:00:00.000Z`));
    expect(newMonth.reading.outcome).toBe('ok');
    expect(newMonth.reading.credits).toMatchObject({
      used: 1,
      resetAt: Date.parse(`${YEAR + 1}-01-01T00:00:00.000Z`),
    });
    // The hourly window opened on the 30th is still the same one.
    expect(newMonth.reading.hourly).toMatchObject({ used: 3, windowStartedAt: lastDay.getTime() });
  });

  it('win over a full hourly window: the credits 429 is the one returned', async () => {
    const key = randomUUID();
    const start = at(`${YEAR}-11-22T10:00:00.000Z`);
    // The month's credits in ten hours, the last of which is full too.
    await chargesOverHours(key, FREE, start, 1_000);
    const refused = await meter.meter(key, FREE, 'charge', later(start, 9 * HOUR + 1_000));
    expect(refused.reading.outcome).toBe('credits');
  });
});

describe('refunds', () => {
  it('give back both the hourly count and the credit', async () => {
    const key = randomUUID();
    const now = at(`${YEAR}-11-22T10:00:00.000Z`);
    const [first, second] = await charges(key, FREE, now, 2);
    const after = await meter.refund(second!.ticket!, later(now, 500));
    expect(after.hourly.used).toBe(1);
    expect(after.credits.used).toBe(1);
    expect(first!.ticket).not.toBeNull();
  });

  it('close a window whose only counted request is given back: the next one opens it', async () => {
    const key = randomUUID();
    const now = at(`${YEAR}-11-22T10:00:00.000Z`);
    const [failed] = await charges(key, FREE, now, 1);
    const after = await meter.refund(failed!.ticket!, later(now, 10));
    expect(after.hourly).toMatchObject({ used: 0, windowStartedAt: null });
    const [next] = await charges(key, FREE, later(now, 60_000), 1);
    expect(next!.reading.hourly).toMatchObject({
      used: 1,
      windowStartedAt: now.getTime() + 60_000,
    });
  });

  it('never push a counter below zero, even when the same ticket is given back twice', async () => {
    const key = randomUUID();
    const now = at(`${YEAR}-11-22T10:00:00.000Z`);
    const [only] = await charges(key, FREE, now, 1);
    await meter.refund(only!.ticket!, now);
    const again = await meter.refund(only!.ticket!, now);
    expect(again.hourly.used).toBe(0);
    expect(again.credits.used).toBe(0);
    const read = await meter.meter(key, FREE, 'read', now);
    expect(read.reading.hourly.used).toBe(0);
    expect(read.reading.credits.used).toBe(0);
  });

  it('never give back to a later window than the one charged', async () => {
    const key = randomUUID();
    const start = at(`${YEAR}-11-22T10:00:00.000Z`);
    const [old] = await charges(key, FREE, start, 1);
    const nextWindow = later(start, HOUR + 5);
    await charges(key, FREE, nextWindow, 2);
    const after = await meter.refund(old!.ticket!, later(nextWindow, 1_000));
    expect(after.hourly).toMatchObject({ used: 2, windowStartedAt: nextWindow.getTime() });
    expect(after.credits.used).toBe(2);
  });

  it('give a credit back to the month it was charged to', async () => {
    const key = randomUUID();
    const [november] = await charges(key, FREE, at(`${YEAR}-11-30T23:59:59.000Z`), 1);
    const [december] = await charges(key, FREE, at(`${YEAR}-12-01T00:00:01.000Z`), 1);
    const ticket: ChargeTicket = november!.ticket!;
    expect(ticket.creditMonth).toBe(`${YEAR}-11`);
    const after = await meter.refund(ticket, at(`${YEAR}-12-01T00:00:02.000Z`));
    // December's counter is untouched (and shown); November's is back to zero.
    expect(after.credits.used).toBe(1);
    const novemberLeft = await meter.meter(key, FREE, 'read', at(`${YEAR}-11-30T23:59:59.500Z`));
    expect(novemberLeft.reading.credits.used).toBe(0);
    expect(december!.reading.credits.used).toBe(1);
  });

  it('keep a key at exactly its limit when refused and refunded requests interleave', async () => {
    const key = randomUUID();
    const now = at(`${YEAR}-11-22T10:00:00.000Z`);
    const attempts = await Promise.all(
      Array.from({ length: 140 }, (_, index) =>
        meter.meter(key, FREE, 'charge', later(now, index)),
      ),
    );
    const admitted = attempts.filter((attempt) => attempt.ticket);
    expect(admitted).toHaveLength(100);
    await Promise.all(admitted.slice(0, 2).map((attempt) => meter.refund(attempt.ticket!, now)));
    const read = await meter.meter(key, FREE, 'read', now);
    expect(read.reading.hourly.used).toBe(98);
    expect(read.reading.credits.used).toBe(98);
  });
});

describe('the burst limit', () => {
  const now = at(`${YEAR}-11-22T10:00:00.000Z`);
  /** `count` requests of one key in `mode` at the same instant. */
  const atOnce = (key: string, mode: MeterMode, count: number, when = now) =>
    Promise.all(Array.from({ length: count }, () => meter.meter(key, ENTERPRISE, mode, when)));

  it('admits 20 uncharged at once, then one every 50 ms; a refusal takes nothing', async () => {
    const key = randomUUID();
    const instant = await atOnce(key, 'uncharged', 25);
    const outcomes = instant.map((result) => result.reading.outcome);
    expect(outcomes.filter((outcome) => outcome === 'ok')).toHaveLength(20);
    expect(outcomes.filter((outcome) => outcome === 'burst')).toHaveLength(5);
    const refused = instant.find((result) => result.reading.outcome === 'burst')!;
    expect(refused.reading.retryAfterMs).toBe(50);
    expect(refused.ticket).toBeNull();

    const uncharged = (ms: number) => meter.meter(key, ENTERPRISE, 'uncharged', later(now, ms));
    expect((await uncharged(49)).reading.outcome).toBe('burst');
    expect((await uncharged(50)).reading.outcome).toBe('ok');
    expect((await uncharged(50)).reading.outcome).toBe('burst');
    // A second later the bucket is full again.
    const refilled = await atOnce(key, 'uncharged', 20, later(now, 1_050));
    expect(refilled.every((result) => result.reading.outcome === 'ok')).toBe(true);
  });

  it('never bounds a charge: 60 at one instant are all counted, and the bucket stays full', async () => {
    const key = randomUUID();
    const charged = await atOnce(key, 'charge', 60);
    expect(charged.every((result) => result.reading.outcome === 'ok')).toBe(true);
    expect(charged.at(-1)!.reading.hourly.used).toBe(60);
    const uncharged = await atOnce(key, 'uncharged', 21);
    const outcomes = uncharged.map((result) => result.reading.outcome);
    expect(outcomes.filter((outcome) => outcome === 'ok')).toHaveLength(20);
  });

  it('takes a unit for a charge given back as uncharged, and refuses it past the limit', async () => {
    const key = randomUUID();
    const charged = await atOnce(key, 'charge', 25);
    const settled = await Promise.all(
      charged.map((result) => meter.refund(result.ticket!, now, { takeBurstUnit: true })),
    );
    const outcomes = settled.map((reading) => reading.outcome);
    expect(outcomes.filter((outcome) => outcome === 'ok')).toHaveLength(20);
    expect(outcomes.filter((outcome) => outcome === 'burst')).toHaveLength(5);
    expect(settled.find((reading) => reading.outcome === 'burst')!.retryAfterMs).toBe(50);
    // Every charge was given back, refused or not, and the refusals took no unit.
    const read = await meter.meter(key, ENTERPRISE, 'read', now);
    expect(read.reading.hourly.used).toBe(0);
    expect(read.reading.credits.used).toBe(0);
    expect((await meter.meter(key, ENTERPRISE, 'uncharged', later(now, 50))).reading.outcome).toBe(
      'ok',
    );
  });

  it('bounds a revalidation as a charge given back as uncharged, in one step and with no ticket', async () => {
    const key = randomUUID();
    const revalidated = await atOnce(key, 'revalidate', 25);
    const outcomes = revalidated.map((result) => result.reading.outcome);
    expect(outcomes.filter((outcome) => outcome === 'ok')).toHaveLength(20);
    expect(outcomes.filter((outcome) => outcome === 'burst')).toHaveLength(5);
    expect(revalidated.every((result) => result.ticket === null)).toBe(true);
    const read = await meter.meter(key, ENTERPRISE, 'read', now);
    expect(read.reading.hourly).toMatchObject({ used: 0, windowStartedAt: null });
    expect(read.reading.credits.used).toBe(0);
  });

  it('refuses a revalidation as a charge would be once the window is used up, taking no unit', async () => {
    const key = randomUUID();
    await chargesOverHours(key, FREE, now, FREE.requestsPerHour);
    const refused = await meter.meter(key, FREE, 'revalidate', later(now, 1));
    expect(refused.reading.outcome).toBe('hourly');
    const uncharged = await atOnce(key, 'uncharged', 20, later(now, 2));
    expect(uncharged.every((result) => result.reading.outcome === 'ok')).toBe(true);
  });

  it('is not touched by a refund without takeBurstUnit (a 5xx, a late reply)', async () => {
    const key = randomUUID();
    const charged = await atOnce(key, 'charge', 25);
    const settled = await Promise.all(charged.map((result) => meter.refund(result.ticket!, now)));
    expect(settled.every((reading) => reading.outcome === 'ok')).toBe(true);
    const uncharged = await atOnce(key, 'uncharged', 20);
    expect(uncharged.every((result) => result.reading.outcome === 'ok')).toBe(true);
  });

  it('does not apply to reads', async () => {
    const key = randomUUID();
    const reads = await Promise.all(
      Array.from({ length: 50 }, () => meter.meter(key, FREE, 'read', now)),
    );
    expect(reads.every((result) => result.reading.outcome === 'ok')).toBe(true);
  });
});

describe('failed authentications', () => {
  it('admit 30 a minute per address, then one every 2 seconds', async () => {
    const address = `198.51.100.${Math.floor(Math.random() * 250)}-${randomUUID()}`;
    const now = at(`${YEAR}-11-22T10:00:00.000Z`);
    const waits = await Promise.all(
      Array.from({ length: 32 }, () => authFailures.recordFailure(address, now)),
    );
    expect(waits.filter((wait) => wait === 0)).toHaveLength(30);
    expect(waits.filter((wait) => wait > 0)).toEqual([2_000, 2_000]);
    expect(await authFailures.recordFailure(address, later(now, 2_000))).toBe(0);
    expect(await authFailures.recordFailure('203.0.113.7-' + randomUUID(), now)).toBe(0);
  });

  it('can be asked whether an address may still fail, without counting', async () => {
    const address = `198.51.100.9-${randomUUID()}`;
    const now = at(`${YEAR}-11-22T10:00:00.000Z`);
    for (let count = 0; count < 40; count += 1) {
      expect(await authFailures.waitBeforeNextFailure(address, now)).toBe(0);
    }
    for (let count = 0; count < 30; count += 1) await authFailures.recordFailure(address, now);
    expect(await authFailures.waitBeforeNextFailure(address, now)).toBe(2_000);
    expect(await authFailures.waitBeforeNextFailure(address, later(now, 2_000))).toBe(0);
  });
});

describe('exactness under concurrency', () => {
  it('admits exactly the plan: 500 concurrent charges at 100 an hour give 100', async () => {
    const key = randomUUID();
    const now = Date.now();
    const results = await Promise.all(
      Array.from({ length: 500 }, (_, index) =>
        meter.meter(key, FREE, 'charge', new Date(now + index * 60)),
      ),
    );
    expect(results.filter((result) => result.reading.outcome === 'ok')).toHaveLength(100);
    expect(results.filter((result) => result.reading.outcome === 'hourly')).toHaveLength(400);
    const read = await meter.meter(key, FREE, 'read', new Date(now + 30_000));
    expect(read.reading.hourly.used).toBe(100);
    expect(read.reading.credits.used).toBe(100);
  });

  it('admits exactly the credits left: 5 of 100 concurrent requests', async () => {
    const key = randomUUID();
    const start = at(`${YEAR}-11-22T10:00:00.000Z`);
    await chargesOverHours(key, FREE, start, 995);
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        meter.meter(key, FREE, 'charge', new Date(start.getTime() + 10 * HOUR + index * 60)),
      ),
    );
    expect(results.filter((result) => result.reading.outcome === 'ok')).toHaveLength(5);
    expect(results.filter((result) => result.reading.outcome === 'credits')).toHaveLength(95);
  });
});

describe('the scripts', () => {
  it('keep all counters of one key in one Redis Cluster slot', async () => {
    const key = randomUUID();
    const names = ['hour', 'credits:2026-11', 'burst'].map((counter) =>
      redis.meterKey(key, counter),
    );
    const slots = await Promise.all(
      names.map((name) => redis.connection.call('CLUSTER', 'KEYSLOT', name).catch(() => null)),
    );
    // CLUSTER KEYSLOT answers on a standalone server too (Redis 7).
    expect(new Set(slots).size).toBe(1);
    expect(names.every((name) => name.includes(`{${key}}`))).toBe(true);
  });

  it('are loaded again after SCRIPT FLUSH (a restarted Redis) without a failed request', async () => {
    await redis.connection.script('FLUSH');
    const { reading } = await meter.meter(randomUUID(), FREE, 'charge');
    expect(reading.outcome).toBe('ok');
  });
});
