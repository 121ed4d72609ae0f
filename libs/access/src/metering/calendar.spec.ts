import { describe, expect, it } from 'vitest';
import { creditMonth, nextCreditReset, secondsUntil } from './calendar.js';

describe('creditMonth', () => {
  it('is the UTC month, whatever the local time zone would say', () => {
    expect(creditMonth(new Date('2026-11-30T23:59:59.999Z'))).toBe('2026-11');
    expect(creditMonth(new Date('2026-12-01T00:00:00.000Z'))).toBe('2026-12');
    expect(creditMonth(new Date('2026-12-01T00:30:00.000+01:00'))).toBe('2026-11');
  });
});

describe('nextCreditReset', () => {
  it.each([
    ['2026-11-22T00:45:00.000Z', '2026-12-01T00:00:00.000Z'],
    ['2026-12-31T23:59:59.999Z', '2027-01-01T00:00:00.000Z'],
    ['2027-01-01T00:00:00.000Z', '2027-02-01T00:00:00.000Z'],
    ['2028-02-29T12:00:00.000Z', '2028-03-01T00:00:00.000Z'],
  ])('after %s is %s', (now, reset) => {
    expect(nextCreditReset(new Date(now)).toISOString()).toBe(reset);
  });
});

describe('secondsUntil', () => {
  const now = new Date('2026-11-22T00:00:00.000Z');
  it('rounds up a part of a second', () => {
    expect(secondsUntil(now.getTime() + 1, now)).toBe(1);
    expect(secondsUntil(now.getTime() + 1_000, now)).toBe(1);
    expect(secondsUntil(now.getTime() + 1_001, now)).toBe(2);
  });
  it('is never negative', () => {
    expect(secondsUntil(now.getTime() - 5_000, now)).toBe(0);
  });
});
