import type { PricingDocument } from '../pricing-document.js';
import { ExchangeRateBook, type ExchangeRate } from './exchange-rates.js';
import { monthlyEquivalent, roundMoney } from './monthly-equivalent.js';

type StoredCharge = PricingDocument['plans'][number]['charges'][number];

/** A charge's monthly equivalent in the currency asked for. */
export interface ConvertedFigure {
  currency: string;
  monthly_equivalent: number;
  rate: number;
  rate_date: string | null;
}

type PricedCharge = StoredCharge & {
  monthly_equivalent: number | null;
  converted?: ConvertedFigure | null;
};

export type PricedPlan = Omit<PricingDocument['plans'][number], 'charges'> & {
  charges: PricedCharge[];
};

export type PricedDocument = Omit<PricingDocument, 'plans'> & { plans: PricedPlan[] };

/** Reads the exchange rates between `target` and each of `currencies` (both directions). */
type RatesFor = (target: string, currencies: string[]) => Promise<ExchangeRate[]>;

/** A currency to convert into, and the rates to do it with. */
export interface ConversionTarget {
  currency: string;
  rates: ExchangeRateBook;
}

/**
 * A monthly equivalent in `currency`, seen in the extraction of `version`, converted unrounded
 * with the rate used (rate_date is the version's rate); null when there is no rate.
 */
export function convertFigure(
  monthly: number,
  currency: string,
  version: string,
  target: ConversionTarget,
): ConvertedFigure | null {
  const applied = target.rates.rateFor(currency, target.currency, version);
  if (!applied) return null;
  const converted = monthly * applied.rate;
  // A price near the largest double times a large rate overflows: no figure, as without a rate.
  if (!Number.isFinite(converted)) return null;
  return { currency: target.currency, monthly_equivalent: converted, ...applied };
}

/**
 * A charge's converted monthly equivalent, unrounded, with the rate used (rate_date is the
 * version's rate); null when it has no monthly equivalent or there is no rate.
 */
export function convertMonthly(
  charge: Pick<StoredCharge, 'billing' | 'price' | 'currency'>,
  version: string,
  target: ConversionTarget,
): ConvertedFigure | null {
  const monthly = monthlyEquivalent(charge.billing, charge.price);
  return monthly === null ? null : convertFigure(monthly, charge.currency, version, target);
}

/**
 * A plan as the pricing answers give it: each charge with its monthly equivalent and, given a
 * target, `converted` (null without rate or monthly equivalent). `unconverted` counts the
 * charges that have a monthly equivalent but no rate.
 */
export function pricePlan(
  plan: PricingDocument['plans'][number],
  version: string,
  target?: ConversionTarget,
): { plan: PricedPlan; unconverted: number } {
  let unconverted = 0;
  const charges = plan.charges.map((charge): PricedCharge => {
    const monthly = monthlyEquivalent(charge.billing, charge.price);
    const priced: PricedCharge = {
      ...charge,
      monthly_equivalent: monthly === null ? null : roundMoney(monthly),
    };
    if (!target) return priced;
    const converted = convertMonthly(charge, version, target);
    if (monthly !== null && converted === null) unconverted++;
    priced.converted = converted && {
      ...converted,
      monthly_equivalent: roundMoney(converted.monthly_equivalent),
    };
    return priced;
  });
  return { plan: { ...plan, charges }, unconverted };
}

/** A stored pricing document as the pricing answers give it (see pricePlan). */
export function priceDocument(
  document: PricingDocument,
  target?: ConversionTarget,
): { document: PricedDocument; unconverted: number } {
  let unconverted = 0;
  const plans = document.plans.map((plan) => {
    const priced = pricePlan(plan, document.version, target);
    unconverted += priced.unconverted;
    return priced.plan;
  });
  return { document: { ...document, plans }, unconverted };
}

/**
 * The document the pricing route answers for an extraction: priced and, given a target, with
 * the target's `currency` and the count of charges left `unconverted` at the top level.
 */
export function pricingAnswer(
  document: PricingDocument,
  target?: ConversionTarget,
): PricedDocument | (PricedDocument & { currency: string; unconverted: number }) {
  const { document: priced, unconverted } = priceDocument(document, target);
  return target ? { ...priced, currency: target.currency, unconverted } : priced;
}

/**
 * The target `currency` with the rates converting these plans into it needs: those between it
 * and each other currency their charges are in, read by `ratesFor` in one call.
 */
export function conversionTargetFor(
  currency: string,
  plans: Iterable<PricingDocument['plans'][number]>,
  ratesFor: RatesFor,
): Promise<ConversionTarget> {
  const currencies = new Set<string>();
  for (const plan of plans) {
    for (const charge of plan.charges) currencies.add(charge.currency);
  }
  return conversionTargetBetween(currency, currencies, ratesFor);
}

/**
 * The target `currency` with the rates between it and each of `currencies` (figures already
 * reduced to their currencies, as the price index holds them), read by `ratesFor` in one call.
 */
export async function conversionTargetBetween(
  currency: string,
  currencies: Iterable<string>,
  ratesFor: RatesFor,
): Promise<ConversionTarget> {
  const others = [...new Set(currencies)].filter((other) => other !== currency);
  return { currency, rates: new ExchangeRateBook(await ratesFor(currency, others)) };
}
