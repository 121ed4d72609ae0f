import { describe, expect, it } from 'vitest';
import {
  significancesFrom,
  weighChange,
  type Significance,
  type WeighedFacts,
} from './change-significance.js';
import type { PricingChangeType } from './pricing-diff.js';

const MONTHLY = 'monthly_recurring_billed_monthly';

/** A change of a charge of `billing` (the fields the weighing reads). */
const change = (
  event_type: PricingChangeType,
  billing: string | null,
  field: string | null,
  old_value: unknown = null,
  new_value: unknown = null,
): WeighedFacts => ({
  event_type,
  charge: billing === null ? null : { billing, display_name: 'Pro' },
  field,
  old_value,
  new_value,
});

/** A price change of a charge of `billing` from one price to another. */
const priceChange = (before: number, after: number, billing = MONTHLY) =>
  weighChange(
    change(after > before ? 'price_increased' : 'price_decreased', billing, 'price', before, after),
  );

describe('weighChange: the size of a price change', () => {
  it('gives both monthly equivalents, rounded to 4 decimals, and the change in percent', () => {
    expect(priceChange(10, 12)).toEqual({
      old_monthly_equivalent: 10,
      new_monthly_equivalent: 12,
      change_percent: 20,
      significance: 'major',
    });
    expect(priceChange(100, 110, 'annual_recurring_billed_yearly')).toEqual({
      old_monthly_equivalent: 8.3333,
      new_monthly_equivalent: 9.1667,
      change_percent: 10,
      significance: 'moderate',
    });
  });

  it('rounds change_percent to 2 decimals, halves away from zero, from the unrounded figures', () => {
    expect(priceChange(3, 4).change_percent).toBe(33.33);
    expect(priceChange(3, 2).change_percent).toBe(-33.33);
    expect(priceChange(3, 5).change_percent).toBe(66.67);
    expect(priceChange(100, 100.125).change_percent).toBe(0.13);
    expect(priceChange(100, 99.875).change_percent).toBe(-0.13);
    // A twelfth of each yearly price: from the rounded monthly figures it would be 112.5.
    expect(priceChange(0.01, 0.02, 'annual_recurring_billed_yearly')).toMatchObject({
      old_monthly_equivalent: 0.0008,
      new_monthly_equivalent: 0.0017,
      change_percent: 100,
    });
  });

  it('has no change_percent when the old figure is 0 or there are no monthly equivalents', () => {
    expect(priceChange(0, 5)).toEqual({
      old_monthly_equivalent: 0,
      new_monthly_equivalent: 5,
      change_percent: null,
      significance: 'major',
    });
    // A free tier is 0 a month whatever its price says.
    expect(priceChange(3, 4, 'freemium')).toMatchObject({
      old_monthly_equivalent: 0,
      new_monthly_equivalent: 0,
      change_percent: null,
    });
    expect(priceChange(500, 510, 'one_time')).toEqual({
      old_monthly_equivalent: null,
      new_monthly_equivalent: null,
      change_percent: null,
      significance: 'major',
    });
    expect(priceChange(100, 101, 'pricing_not_disclosed').change_percent).toBeNull();
  });

  it('has no change_percent, rather than Infinity, when the ratio overflows a double', () => {
    expect(priceChange(1e-300, 1e10)).toMatchObject({
      old_monthly_equivalent: 0,
      new_monthly_equivalent: 1e10,
      change_percent: null,
      significance: 'major',
    });
  });
});

describe('weighChange: significance', () => {
  it.each([
    [10, 12, 'major'],
    [10, 8, 'major'],
    [10, 30, 'major'],
    [100, 119.99, 'moderate'],
    [100, 80.01, 'moderate'],
    [100, 105, 'moderate'],
    [100, 95, 'moderate'],
    [100, 104.99, 'minor'],
    [100, 95.01, 'minor'],
    [100, 100.5, 'minor'],
  ] as const)('a price from %s to %s is %s', (before, after, expected) => {
    expect(priceChange(before, after).significance).toBe(expected);
  });

  it('judges a price change on its change_percent as written (rounded)', () => {
    expect(priceChange(100_000, 119_996)).toMatchObject({
      change_percent: 20,
      significance: 'major',
    });
    expect(priceChange(100_000, 104_996)).toMatchObject({
      change_percent: 5,
      significance: 'moderate',
    });
  });

  it.each([
    ['plan_added', null, null, 'major'],
    ['plan_removed', null, null, 'major'],
    ['charge_added', 'freemium', null, 'major'],
    ['charge_removed', 'freemium', null, 'major'],
    ['charge_added', 'pricing_not_disclosed', null, 'major'],
    ['charge_removed', 'pricing_not_disclosed', null, 'major'],
    ['charge_added', MONTHLY, null, 'moderate'],
    ['charge_removed', 'annual_recurring_billed_yearly', null, 'moderate'],
    ['charge_added', 'one_time', null, 'moderate'],
    ['charge_changed', MONTHLY, 'price', 'major'],
    ['charge_changed', MONTHLY, 'currency', 'minor'],
    ['charge_changed', 'freemium', 'price_display', 'minor'],
    ['charge_changed', null, 'display_name', 'minor'],
    ['charge_changed', null, 'add_on', 'minor'],
    ['discount_added', null, null, 'moderate'],
    ['discount_removed', null, null, 'moderate'],
    ['discount_changed', null, 'amount', 'minor'],
  ] as const)('%s of a %s charge, field %s, is %s', (type, billing, field, expected) => {
    expect(weighChange(change(type, billing, field))).toEqual({ significance: expected });
  });

  it('a price that appears, disappears or changes currency is charge_changed of price: major', () => {
    expect(weighChange(change('charge_changed', MONTHLY, 'price', null, 10))).toEqual({
      significance: 'major',
    });
    expect(weighChange(change('charge_changed', MONTHLY, 'price', 10, null))).toEqual({
      significance: 'major',
    });
  });
});

describe('significancesFrom', () => {
  it.each([
    ['minor', ['minor', 'moderate', 'major']],
    ['moderate', ['moderate', 'major']],
    ['major', ['major']],
  ] as [Significance, Significance[]][])('%s lets through %j', (least, levels) => {
    expect(significancesFrom(least)).toEqual(levels);
  });
});
