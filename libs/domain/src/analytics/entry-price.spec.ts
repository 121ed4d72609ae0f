import { describe, expect, it } from 'vitest';
import type { PricingDocument } from '../pricing-document.js';
import { entryPrices } from './entry-price.js';
import { ExchangeRateBook } from './exchange-rates.js';

const charge = (
  billing: string,
  currency: string,
  price: number | null,
  modality = 'user_based',
) => ({
  billing,
  currency,
  price,
  pricing_metric: { id: 'm', display_name: 'per user', modality },
});
const document = (plans: { add_on: boolean; charges: ReturnType<typeof charge>[] }[]) =>
  ({ version: '20250301', plans }) as unknown as PricingDocument;

const rates = new ExchangeRateBook([{ date: '20250101', base: 'EUR', quote: 'USD', rate: 1.1 }]);

describe('entryPrices', () => {
  const mixed = document([
    { add_on: false, charges: [charge('freemium', 'USD', null)] },
    {
      add_on: false,
      charges: [
        charge('annual_recurring_billed_yearly', 'USD', 120),
        charge('monthly_recurring_billed_monthly', 'USD', 15, 'usage_based'),
        charge('monthly_recurring_billed_monthly', 'EUR', 11),
      ],
    },
    { add_on: true, charges: [charge('monthly_recurring_billed_monthly', 'USD', 1)] },
  ]);

  it('takes the lowest monthly equivalent above 0 of the plans that are not add-ons, per currency', () => {
    expect(entryPrices(mixed, {}).byCurrency).toEqual(
      new Map([
        ['USD', 10],
        ['EUR', 11],
      ]),
    );
  });

  it('counts only the billings and modalities asked for', () => {
    const filter = { billing: new Set(['monthly_recurring_billed_monthly']) };
    expect(entryPrices(mixed, filter).byCurrency.get('USD')).toBe(15);
    const userBased = { ...filter, modality: new Set(['user_based']) };
    expect(entryPrices(mixed, userBased).byCurrency.has('USD')).toBe(false);
  });

  it('converts charge by charge before taking the lowest', () => {
    const converted = entryPrices(mixed, {}, { currency: 'USD', rates });
    expect(converted.byCurrency).toEqual(new Map([['USD', 10]]));
    const euros = entryPrices(mixed, {}, { currency: 'EUR', rates });
    expect(euros.byCurrency.get('EUR')).toBeCloseTo(10 / 1.1, 12);
    expect(euros.unconverted).toBe(false);
  });

  it('says a page was left out for want of a rate only when no priced charge converted', () => {
    const yen = document([
      { add_on: false, charges: [charge('monthly_recurring_billed_monthly', 'JPY', 900)] },
    ]);
    expect(entryPrices(yen, {}, { currency: 'USD', rates })).toEqual({
      byCurrency: new Map(),
      unconverted: true,
    });
    const free = document([{ add_on: false, charges: [charge('freemium', 'JPY', null)] }]);
    expect(entryPrices(free, {}, { currency: 'USD', rates }).unconverted).toBe(false);
  });
});
