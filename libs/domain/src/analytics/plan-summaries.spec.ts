import { describe, expect, it } from 'vitest';
import type { PricingDocument } from '../pricing-document.js';
import { ExchangeRateBook } from './exchange-rates.js';
import { lowestMonthlyEquivalent, seriesPlan } from './plan-summaries.js';
import { pricePlan } from './priced-document.js';

type Plan = PricingDocument['plans'][number];

const charge = (billing: string, currency: string, price: number | null) => ({
  id: 'c',
  billing,
  currency,
  price,
  charge_type: 'flat',
  pricing_metric: null,
  usage_type: null,
  display_name: `${billing} ${price}`,
  price_display: null,
  included_quantity: null,
  overage_info: null,
});

const plan = (charges: ReturnType<typeof charge>[]): Plan =>
  ({
    id: 'p',
    display_name: 'Team',
    internal_name: 'team',
    add_on: false,
    charges,
    discounts: [],
  }) as Plan;

const rates = new ExchangeRateBook([{ date: '20250101', base: 'EUR', quote: 'USD', rate: 1.1 }]);

describe('lowestMonthlyEquivalent', () => {
  const team = plan([
    charge('annual_recurring_billed_yearly', 'EUR', 100),
    charge('monthly_recurring_billed_monthly', 'USD', 9),
    charge('one_time', 'USD', 1),
  ]);

  it('takes the lowest of the charges that have one, unrounded, a free tier at 0', () => {
    expect(lowestMonthlyEquivalent(team, '20250301')).toBeCloseTo(100 / 12, 12);
    expect(lowestMonthlyEquivalent(plan([charge('freemium', 'USD', null)]), '20250301')).toBe(0);
  });

  it('compares converted figures given a target, leaving out the charges without a rate', () => {
    // 100 / 12 EUR is 9.1667 USD: the 9 USD charge is now the lowest.
    expect(lowestMonthlyEquivalent(team, '20250301', { currency: 'USD', rates })).toBe(9);
    const euros = lowestMonthlyEquivalent(team, '20250301', { currency: 'EUR', rates });
    expect(euros).toBeCloseTo(9 / 1.1, 12);
    const yen = plan([charge('monthly_recurring_billed_monthly', 'JPY', 900)]);
    expect(lowestMonthlyEquivalent(yen, '20250301', { currency: 'USD', rates })).toBeNull();
  });

  it('is null when no charge has a monthly equivalent', () => {
    const undisclosed = plan([charge('pricing_not_disclosed', 'USD', null)]);
    expect(lowestMonthlyEquivalent(undisclosed, '20250301')).toBeNull();
  });
});

describe('seriesPlan', () => {
  const team = plan([charge('monthly_recurring_billed_monthly', 'EUR', 10)]);

  it('keeps names, add_on and what each charge costs a month', () => {
    expect(seriesPlan(pricePlan(team, '20250301').plan)).toEqual({
      internal_name: 'team',
      display_name: 'Team',
      add_on: false,
      charges: [
        {
          display_name: 'monthly_recurring_billed_monthly 10',
          billing: 'monthly_recurring_billed_monthly',
          currency: 'EUR',
          price: 10,
          monthly_equivalent: 10,
        },
      ],
    });
  });

  it('carries converted only when the plan was priced with a target', () => {
    const priced = pricePlan(team, '20250301', { currency: 'USD', rates }).plan;
    expect(seriesPlan(priced).charges[0]!.converted).toEqual({
      currency: 'USD',
      monthly_equivalent: 11,
      rate: 1.1,
      rate_date: '20250101',
    });
    const yen = pricePlan(team, '20250301', { currency: 'JPY', rates }).plan;
    expect(seriesPlan(yen).charges[0]).toHaveProperty('converted', null);
  });
});
