import type { PricingDocument } from '../pricing-document.js';
import { monthlyEquivalent } from './monthly-equivalent.js';
import { convertMonthly, type ConversionTarget, type PricedPlan } from './priced-document.js';

/**
 * A plan as a series point gives it (the compare route's plans too): its names, whether it is
 * an add-on, and each charge reduced to what it costs a month, with `converted` when the plan
 * was priced with a target.
 */
export function seriesPlan(plan: PricedPlan) {
  return {
    internal_name: plan.internal_name,
    display_name: plan.display_name,
    add_on: plan.add_on,
    charges: plan.charges.map((charge) => ({
      display_name: charge.display_name,
      billing: charge.billing,
      currency: charge.currency,
      price: charge.price,
      monthly_equivalent: charge.monthly_equivalent,
      ...(charge.converted === undefined ? {} : { converted: charge.converted }),
    })),
  };
}

/**
 * The lowest monthly equivalent among a plan's charges, unrounded (0 for a free tier): in the
 * charges' own currencies, or, given a target, converted at the version's rates, a charge
 * without a rate left out. Null when no charge has one.
 */
export function lowestMonthlyEquivalent(
  plan: PricingDocument['plans'][number],
  version: string,
  target?: ConversionTarget,
): number | null {
  let lowest: number | null = null;
  for (const charge of plan.charges) {
    const figure = target
      ? (convertMonthly(charge, version, target)?.monthly_equivalent ?? null)
      : monthlyEquivalent(charge.billing, charge.price);
    if (figure !== null && (lowest === null || figure < lowest)) lowest = figure;
  }
  return lowest;
}
