import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PricingDocument } from '../pricing-document.js';
import {
  countsTowardsEntryPrice,
  entryPriceCandidates,
  entryPrices,
  lowestEntryPrices,
  type EntryPriceFilter,
} from './entry-price.js';
import { ExchangeRateBook } from './exchange-rates.js';
import { monthlyEquivalent } from './monthly-equivalent.js';
import { convertMonthly, type ConversionTarget } from './priced-document.js';

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

describe('entryPriceCandidates', () => {
  it('keeps, per billing, modality and currency, the lowest monthly equivalent above 0 of the plans that are not add-ons', () => {
    const candidates = entryPriceCandidates(
      document([
        { add_on: false, charges: [charge('freemium', 'USD', null)] },
        {
          add_on: false,
          charges: [
            charge('monthly_recurring_billed_monthly', 'USD', 15),
            charge('monthly_recurring_billed_monthly', 'USD', 12),
            charge('annual_recurring_billed_yearly', 'USD', 120),
            charge('monthly_recurring_billed_monthly', 'USD', 9, 'usage_based'),
            charge('monthly_recurring_billed_monthly', 'EUR', 11),
            charge('one_time', 'USD', 500),
          ],
        },
        { add_on: true, charges: [charge('monthly_recurring_billed_monthly', 'USD', 1)] },
      ]),
    );
    expect(candidates).toEqual([
      {
        billing: 'monthly_recurring_billed_monthly',
        modality: 'user_based',
        currency: 'USD',
        monthly: 12,
      },
      {
        billing: 'annual_recurring_billed_yearly',
        modality: 'user_based',
        currency: 'USD',
        monthly: 10,
      },
      {
        billing: 'monthly_recurring_billed_monthly',
        modality: 'usage_based',
        currency: 'USD',
        monthly: 9,
      },
      {
        billing: 'monthly_recurring_billed_monthly',
        modality: 'user_based',
        currency: 'EUR',
        monthly: 11,
      },
    ]);
  });

  it('gives a charge without a pricing metric no modality, which a modality filter never lets through', () => {
    const [candidate] = entryPriceCandidates({
      version: '20250301',
      plans: [
        {
          add_on: false,
          charges: [{ billing: 'monthly_recurring_billed_monthly', currency: 'USD', price: 5 }],
        },
      ],
    } as unknown as PricingDocument);
    expect(candidate).toMatchObject({ modality: null, monthly: 5 });
    expect(countsTowardsEntryPrice(candidate!, {})).toBe(true);
    expect(countsTowardsEntryPrice(candidate!, { modality: new Set(['user_based']) })).toBe(false);
  });
});

/**
 * The entry prices charge by charge, as section 8 of the contract defines them: the oracle
 * the candidates must agree with, whatever the filter and the target.
 */
function entryPricesChargeByCharge(
  priced: PricingDocument,
  filter: EntryPriceFilter,
  target?: ConversionTarget,
) {
  const byCurrency = new Map<string, number>();
  let wantedRate = false;
  for (const plan of priced.plans.filter((candidate) => !candidate.add_on)) {
    for (const one of plan.charges) {
      const modality = one.pricing_metric?.modality;
      if (filter.billing && !filter.billing.has(one.billing)) continue;
      if (filter.modality && (modality === undefined || !filter.modality.has(modality))) continue;
      const monthly = monthlyEquivalent(one.billing, one.price);
      if (monthly === null || monthly <= 0) continue;
      const converted = target ? convertMonthly(one, priced.version, target) : null;
      if (target && !converted) wantedRate = true;
      const [currency, figure] = target
        ? [target.currency, converted?.monthly_equivalent]
        : [one.currency, monthly];
      if (figure === undefined) continue;
      const lowest = byCurrency.get(currency);
      if (lowest === undefined || figure < lowest) byCurrency.set(currency, figure);
    }
  }
  return { byCurrency, unconverted: wantedRate && byCurrency.size === 0 };
}

describe('entry prices from the candidates', () => {
  const BILLINGS = [
    'monthly_recurring_billed_monthly',
    'annual_recurring_billed_yearly',
    'freemium',
    'one_time',
  ];
  const MODALITIES = ['user_based', 'usage_based'];
  const CURRENCIES = ['USD', 'EUR', 'JPY'];
  const anyCharge = fc.record({
    billing: fc.constantFrom(...BILLINGS),
    currency: fc.constantFrom(...CURRENCIES),
    // Large prices too: a rate may overflow them.
    price: fc.option(fc.oneof(fc.integer({ min: 0, max: 500 }), fc.constant(1e308)), {
      nil: null,
    }),
    modality: fc.option(fc.constantFrom(...MODALITIES), { nil: null }),
  });
  const anyDocument = fc
    .array(fc.record({ add_on: fc.boolean(), charges: fc.array(anyCharge, { maxLength: 5 }) }), {
      maxLength: 4,
    })
    .map((plans) =>
      document(
        plans.map((plan) => ({
          add_on: plan.add_on,
          charges: plan.charges.map(({ billing, currency, price, modality }) => ({
            ...charge(billing, currency, price),
            pricing_metric: modality === null ? null : { id: 'm', display_name: 'm', modality },
          })) as unknown as ReturnType<typeof charge>[],
        })),
      ),
    );
  const anySet = (values: string[]) =>
    fc.option(
      fc.subarray(values, { minLength: 1 }).map((items) => new Set(items)),
      {
        nil: undefined,
      },
    );
  const anyFilter = fc.record({ billing: anySet(BILLINGS), modality: anySet(MODALITIES) });
  // EUR and USD have rates (EUR to USD large enough to overflow 1e308); JPY none.
  const book = new ExchangeRateBook([
    { date: '20250101', base: 'EUR', quote: 'USD', rate: 1.5 },
    { date: '20250101', base: 'USD', quote: 'EUR', rate: 0.8 },
  ]);
  const anyTarget = fc.option(
    fc.constantFrom(...CURRENCIES).map((currency) => ({ currency, rates: book })),
    { nil: undefined },
  );

  it('are the entry prices taken charge by charge, for any filter and any target', () => {
    fc.assert(
      fc.property(anyDocument, anyFilter, anyTarget, (priced, filter, target) => {
        const counted = entryPriceCandidates(priced).filter((candidate) =>
          countsTowardsEntryPrice(candidate, filter),
        );
        const expected = entryPricesChargeByCharge(priced, filter, target);
        expect(lowestEntryPrices(counted, priced.version, target)).toEqual(expected);
        expect(entryPrices(priced, filter, target)).toEqual(expected);
      }),
    );
  });
});
