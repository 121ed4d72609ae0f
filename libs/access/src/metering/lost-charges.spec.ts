import { Logger } from '@nestjs/common';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LostCharges } from './lost-charges.js';
import type { ChargeTicket } from './meter-reading.js';

const KEPT_MS = 60_000;
const ticket = (chargeId: string): ChargeTicket => ({
  apiKeyId: 'key',
  plan: { name: 'free', requestsPerHour: 10, creditsPerMonth: 10, features: [] },
  creditMonth: '2030-01',
  chargeId,
});

/** A Redis that fails until `reachable`, recording each give-back that reaches it. */
function fakeRedis() {
  const redis = {
    reachable: false,
    attempts: [] as string[],
    givenBack: [] as string[],
    giveBack: async (charge: ChargeTicket) => {
      redis.attempts.push(charge.chargeId);
      if (!redis.reachable) throw new Error('Connection is closed.');
      redis.givenBack.push(charge.chargeId);
    },
  };
  return redis;
}

describe('lost charges', () => {
  const logger = new Logger('test');
  let warnings: string[];

  beforeEach(() => {
    vi.useFakeTimers();
    warnings = [];
    vi.spyOn(logger, 'warn').mockImplementation((message: unknown) => {
      warnings.push(String(message));
    });
  });
  afterEach(() => vi.useRealTimers());

  it('are given back once Redis answers, each once, with growing delays meanwhile', async () => {
    const redis = fakeRedis();
    const lost = new LostCharges(redis.giveBack, KEPT_MS, logger);
    lost.add(ticket('a'));
    lost.add(ticket('a'));
    lost.add(ticket('b'));
    await vi.advanceTimersByTimeAsync(0);
    expect(redis.attempts).toEqual(['a', 'b']);
    // Retried after 200, 400, 800 ms...
    await vi.advanceTimersByTimeAsync(200 + 400 + 800);
    expect(redis.attempts).toHaveLength(8);

    redis.reachable = true;
    await vi.advanceTimersByTimeAsync(1_600);
    expect(redis.givenBack).toEqual(['a', 'b']);
    await vi.advanceTimersByTimeAsync(KEPT_MS);
    expect(redis.givenBack).toEqual(['a', 'b']);
    expect(warnings).toEqual([]);
  });

  it('are left, and logged, once Redis has stopped keeping their record', async () => {
    const redis = fakeRedis();
    const lost = new LostCharges(redis.giveBack, KEPT_MS, logger);
    lost.add(ticket('a'));
    await vi.advanceTimersByTimeAsync(KEPT_MS + 5_000);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('charge a of key key');
    const attempts = redis.attempts.length;
    redis.reachable = true;
    await vi.advanceTimersByTimeAsync(KEPT_MS);
    expect(redis.attempts).toHaveLength(attempts);
  });

  it('are logged and no longer retried when the process stops', async () => {
    const redis = fakeRedis();
    const lost = new LostCharges(redis.giveBack, KEPT_MS, logger);
    lost.add(ticket('a'));
    await vi.advanceTimersByTimeAsync(0);
    lost.stop();
    expect(warnings).toHaveLength(1);
    redis.reachable = true;
    await vi.advanceTimersByTimeAsync(KEPT_MS);
    expect(redis.attempts).toEqual(['a']);
  });
});
