import type { PricingDocument } from '../pricing-document.js';
import { monthlyEquivalent } from './monthly-equivalent.js';
import { convertFigure, type ConversionTarget } from './priced-document.js';

/** Which charges count towards an entry price: any of these billings, any of these modalities. */
export interface EntryPriceFilter {
  billing?: ReadonlySet<string>;
  modality?: ReadonlySet<string>;
}

/**
 * What an extraction's entry prices are taken from: of the charges of its plans that are not
 * add-ons, those with a monthly equivalent above 0, one candidate per billing, modality and
 * currency holding the lowest of them. Any filter and any target currency is answered from the
 * candidates as from the charges: a filter keeps or drops a candidate's charges all together,
 * and a conversion multiplies every charge of a currency by the same positive rate, which
 * keeps their order (an overflow included), so the lowest charge stays the lowest.
 */
export interface EntryPriceCandidate {
  billing: string;
  /** The modality of the charges' pricing metric; null for charges without a metric. */
  modality: string | null;
  currency: string;
  /** The lowest monthly equivalent above 0 of those charges, unrounded. */
  monthly: number;
}

/** A page's entry prices, unrounded, by currency; and whether a rate was wanting. */
interface EntryPrices {
  byCurrency: Map<string, number>;
  /** Given a target: priced charges there were, but none could be converted. */
  unconverted: boolean;
}

/** The entry-price candidates of an extraction, in the order its charges first give them. */
export function entryPriceCandidates(document: PricingDocument): EntryPriceCandidate[] {
  const candidates = new Map<string, EntryPriceCandidate>();
  for (const plan of document.plans) {
    if (plan.add_on) continue;
    for (const charge of plan.charges) {
      const monthly = monthlyEquivalent(charge.billing, charge.price);
      if (monthly === null || monthly <= 0) continue;
      const modality = charge.pricing_metric?.modality ?? null;
      const key = JSON.stringify([charge.billing, modality, charge.currency]);
      const held = candidates.get(key);
      if (!held) {
        candidates.set(key, {
          billing: charge.billing,
          modality,
          currency: charge.currency,
          monthly,
        });
      } else if (monthly < held.monthly) {
        held.monthly = monthly;
      }
    }
  }
  return [...candidates.values()];
}

/** Whether a candidate's charges count under the filter (a charge without a metric has no modality). */
export function countsTowardsEntryPrice(
  candidate: Pick<EntryPriceCandidate, 'billing' | 'modality'>,
  filter: EntryPriceFilter,
): boolean {
  if (filter.billing && !filter.billing.has(candidate.billing)) return false;
  return (
    !filter.modality || (candidate.modality !== null && filter.modality.has(candidate.modality))
  );
}

/**
 * The entry prices of an extraction of `version` from the candidates that count: without a
 * target, the lowest per currency; with one, each converted at the rate of its currency on the
 * version before the lowest is taken, a candidate without a rate left out.
 */
export function lowestEntryPrices(
  candidates: Iterable<Pick<EntryPriceCandidate, 'currency' | 'monthly'>>,
  version: string,
  target?: ConversionTarget,
): EntryPrices {
  const byCurrency = new Map<string, number>();
  let wantedRate = false;
  const offer = (currency: string, figure: number) => {
    const lowest = byCurrency.get(currency);
    if (lowest === undefined || figure < lowest) byCurrency.set(currency, figure);
  };
  for (const { currency, monthly } of candidates) {
    if (!target) {
      offer(currency, monthly);
      continue;
    }
    const converted = convertFigure(monthly, currency, version, target);
    if (converted) offer(target.currency, converted.monthly_equivalent);
    else wantedRate = true;
  }
  return { byCurrency, unconverted: wantedRate && byCurrency.size === 0 };
}

/**
 * The entry price of an extraction: the lowest monthly equivalent above 0 among the charges of
 * its plans that are not add-ons, counting only the charges the filter lets through. Without a
 * target, one per currency the extraction prices in; with one, charges are converted one by one
 * before the lowest is taken, and a charge without a rate is left out.
 */
export function entryPrices(
  document: PricingDocument,
  filter: EntryPriceFilter,
  target?: ConversionTarget,
): EntryPrices {
  const counted = entryPriceCandidates(document).filter((candidate) =>
    countsTowardsEntryPrice(candidate, filter),
  );
  return lowestEntryPrices(counted, document.version, target);
}
