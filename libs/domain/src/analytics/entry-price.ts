import type { PricingDocument } from '../pricing-document.js';
import { monthlyEquivalent } from './monthly-equivalent.js';
import { convertMonthly, type ConversionTarget } from './priced-document.js';

/** Which charges count towards an entry price: any of these billings, any of these modalities. */
export interface EntryPriceFilter {
  billing?: ReadonlySet<string>;
  modality?: ReadonlySet<string>;
}

/** A page's entry prices, unrounded, by currency; and whether a rate was wanting. */
interface EntryPrices {
  byCurrency: Map<string, number>;
  /** Given a target: priced charges there were, but none could be converted. */
  unconverted: boolean;
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
  const byCurrency = new Map<string, number>();
  let wantedRate = false;
  const offer = (currency: string, figure: number) => {
    if (figure <= 0) return;
    const lowest = byCurrency.get(currency);
    if (lowest === undefined || figure < lowest) byCurrency.set(currency, figure);
  };
  for (const plan of document.plans) {
    if (plan.add_on) continue;
    for (const charge of plan.charges) {
      if (filter.billing && !filter.billing.has(charge.billing)) continue;
      const modality = charge.pricing_metric?.modality;
      if (filter.modality && (modality === undefined || !filter.modality.has(modality))) continue;
      const monthly = monthlyEquivalent(charge.billing, charge.price);
      if (monthly === null || monthly <= 0) continue;
      if (!target) {
        offer(charge.currency, monthly);
        continue;
      }
      const converted = convertMonthly(charge, document.version, target);
      if (converted) offer(target.currency, converted.monthly_equivalent);
      else wantedRate = true;
    }
  }
  return { byCurrency, unconverted: wantedRate && byCurrency.size === 0 };
}
