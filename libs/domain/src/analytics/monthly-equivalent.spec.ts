import { describe, expect, it } from 'vitest';
import { monthlyEquivalent, roundMoney, roundPercent } from './monthly-equivalent.js';

describe('monthlyEquivalent', () => {
  it.each([
    ['monthly_recurring_billed_monthly', 30, 30],
    ['monthly_recurring_billed_yearly', 25, 25],
    ['annual_recurring_billed_yearly', 300, 25],
    ['freemium', null, 0],
    ['freemium', 12, 0],
    ['one_time', 500, null],
    ['pricing_not_disclosed', null, null],
    ['per_seat_weekly', 10, null],
    ['monthly_recurring_billed_monthly', null, null],
    ['annual_recurring_billed_yearly', null, null],
  ] as const)('%s at %s is %s a month', (billing, price, expected) => {
    expect(monthlyEquivalent(billing, price)).toBe(expected);
  });
});

describe('roundMoney', () => {
  it('rounds to 4 decimals', () => {
    expect(roundMoney(100 / 12)).toBe(8.3333);
    expect(roundMoney(29.99 * 1.0842)).toBe(32.5152);
  });

  it('leaves a figure too large for 4 decimals as it is, never Infinity', () => {
    expect(roundMoney(1.7e308)).toBe(1.7e308);
    expect(roundMoney(1e15 + 0.5)).toBe(1e15 + 0.5);
  });
});

describe('roundPercent', () => {
  it('rounds to 2 decimals, halves away from zero either way', () => {
    expect(roundPercent(100 / 3)).toBe(33.33);
    expect(roundPercent(12.125)).toBe(12.13);
    expect(roundPercent(-12.125)).toBe(-12.13);
  });
});
