import { describe, expect, it } from 'vitest';
import { ExchangeRateBook } from './exchange-rates.js';
import { priceDocument } from './priced-document.js';
import type { PricingDocument } from '../pricing-document.js';

const book = new ExchangeRateBook([
  { date: '20250201', base: 'EUR', quote: 'USD', rate: 1.1 },
  { date: '20250101', base: 'EUR', quote: 'USD', rate: 1.05 },
  { date: '20250301', base: 'USD', quote: 'EUR', rate: 0.9 },
  { date: '20250101', base: 'USD', quote: 'GBP', rate: 0.8 },
  { date: '20250101', base: 'GBP', quote: 'JPY', rate: 190 },
]);

describe('ExchangeRateBook.rateFor', () => {
  it('takes the latest direct rate on or before the date', () => {
    expect(book.rateFor('EUR', 'USD', '20250115')).toEqual({ rate: 1.05, rate_date: '20250101' });
    expect(book.rateFor('EUR', 'USD', '20250201')).toEqual({ rate: 1.1, rate_date: '20250201' });
    expect(book.rateFor('EUR', 'USD', '20251231')).toEqual({ rate: 1.1, rate_date: '20250201' });
  });

  it('divides by the inverse pair only when no direct rate is on or before the date', () => {
    expect(book.rateFor('GBP', 'USD', '20250601')).toEqual({
      rate: 1 / 0.8,
      rate_date: '20250101',
    });
    // USD→EUR exists from 20250301 only; before it the inverse EUR→USD is used.
    expect(book.rateFor('USD', 'EUR', '20250215')).toEqual({
      rate: 1 / 1.1,
      rate_date: '20250201',
    });
    expect(book.rateFor('USD', 'EUR', '20250301')).toEqual({ rate: 0.9, rate_date: '20250301' });
  });

  it('never guesses: no rate before the first record, none through a third currency', () => {
    expect(book.rateFor('EUR', 'USD', '20241231')).toBeNull();
    expect(book.rateFor('USD', 'JPY', '20250601')).toBeNull();
  });

  it('keeps a price already in the currency asked for', () => {
    expect(book.rateFor('CHF', 'CHF', '19990101')).toEqual({ rate: 1, rate_date: null });
  });
});

describe('priceDocument', () => {
  const charge = (billing: string, currency: string, price: number | null) => ({
    id: 'c',
    billing,
    currency,
    price,
    charge_type: 'flat',
    pricing_metric: null,
    usage_type: null,
    display_name: 'Base',
    price_display: null,
    included_quantity: null,
    overage_info: null,
  });
  const document = {
    version: '20250210',
    plans: [
      {
        id: 'p',
        display_name: 'Team',
        internal_name: 'team',
        add_on: false,
        charges: [
          charge('annual_recurring_billed_yearly', 'EUR', 100),
          charge('monthly_recurring_billed_monthly', 'JPY', 1000),
          charge('one_time', 'EUR', 50),
        ],
        discounts: [],
      },
    ],
  } as unknown as PricingDocument;

  it('adds monthly equivalents rounded once, and leaves captured figures alone', () => {
    const { document: priced, unconverted } = priceDocument(document);
    const charges = priced.plans[0]!.charges;
    expect(charges.map((c) => c.monthly_equivalent)).toEqual([8.3333, 1000, null]);
    expect(charges[0]).not.toHaveProperty('converted');
    expect(charges[0]!.price).toBe(100);
    expect(unconverted).toBe(0);
  });

  it('converts from unrounded figures and counts the charges left without a rate', () => {
    const { document: priced, unconverted } = priceDocument(document, {
      currency: 'USD',
      rates: book,
    });
    const charges = priced.plans[0]!.charges;
    expect(charges[0]!.converted).toEqual({
      currency: 'USD',
      monthly_equivalent: 9.1667, // 100 / 12 × 1.1, not 8.3333 × 1.1 = 9.1666
      rate: 1.1,
      rate_date: '20250201',
    });
    expect(charges[0]!.currency).toBe('EUR');
    expect(charges[1]!.converted).toBeNull(); // JPY: no rate
    expect(charges[2]!.converted).toBeNull(); // one-time: no monthly equivalent, not counted
    expect(unconverted).toBe(1);
  });
});
