import { monthlyEquivalent, roundMoney, roundPercent } from './analytics/monthly-equivalent.js';
import type { ChargeKey, PricingChangeType } from './pricing-diff.js';

/** How much a change matters, least first: a minimum lets through its level and those after. */
export const SIGNIFICANCES = ['minor', 'moderate', 'major'] as const;

export type Significance = (typeof SIGNIFICANCES)[number];

/** The levels a minimum lets through: `least` and every level above it. */
export function significancesFrom(least: Significance): Significance[] {
  return SIGNIFICANCES.slice(SIGNIFICANCES.indexOf(least));
}

/** The change types of a price going up or down, the only changes with a size. */
const PRICE_CHANGE_TYPES: readonly PricingChangeType[] = ['price_increased', 'price_decreased'];

export const isPriceChange = (type: string): boolean =>
  (PRICE_CHANGE_TYPES as readonly string[]).includes(type);

/**
 * The size of a price change: both prices as monthly equivalents (in the charge's currency,
 * rounded to 4 decimals), and 100 × (new − old) / old of the unrounded ones, rounded to 2.
 */
export interface PriceChangeSize {
  old_monthly_equivalent: number | null;
  new_monthly_equivalent: number | null;
  /** Null when old is 0 or either has no monthly equivalent (no ratio to state). */
  change_percent: number | null;
}

/** What tells how much a change matters: its significance and, for a price change, its size. */
export type ChangeWeight = { significance: Significance } & Partial<PriceChangeSize>;

/** The facts of a change that weigh it (a pricing change as the diff finds it). */
export interface WeighedFacts {
  event_type: PricingChangeType;
  charge: ChargeKey | null;
  field: string | null;
  old_value: unknown;
  new_value: unknown;
}

/** Billings whose charge coming or going changes what a buyer faces: a free tier, "contact sales". */
const MAJOR_BILLINGS: readonly string[] = ['freemium', 'pricing_not_disclosed'];

/** Price changes of at least this many percent, either way, are major; of at least MODERATE_PERCENT, moderate. */
const MAJOR_PERCENT = 20;
const MODERATE_PERCENT = 5;

/**
 * How much a change matters (docs/API.md, "PricingChange"). Major: a plan added or removed; a
 * price change without a ratio or of at least 20 % either way; a free tier or an undisclosed
 * price added or removed; a price appearing, disappearing or changing currency (charge_changed
 * of price). Moderate: a price change from 5 to under 20 %; any other charge added or removed; a
 * discount added or removed. Minor: everything else (other fields of a charge, a plan or a
 * discount). A price change also carries its size, on which its level is judged as written
 * (the rounded change_percent).
 */
export function weighChange(change: WeighedFacts): ChangeWeight {
  const { event_type: type } = change;
  if (isPriceChange(type)) {
    const size = priceChangeSize(
      change.charge!.billing,
      change.old_value as number,
      change.new_value as number,
    );
    return { ...size, significance: priceChangeSignificance(size.change_percent) };
  }
  return { significance: significanceOf(change) };
}

function priceChangeSize(billing: string, oldPrice: number, newPrice: number): PriceChangeSize {
  const before = monthlyEquivalent(billing, oldPrice);
  const after = monthlyEquivalent(billing, newPrice);
  const percent =
    before === null || after === null || before === 0 ? null : (100 * (after - before)) / before;
  return {
    old_monthly_equivalent: before === null ? null : roundMoney(before),
    new_monthly_equivalent: after === null ? null : roundMoney(after),
    // Past the largest double (a price from a near-zero one) there is no figure either.
    change_percent: percent === null || !Number.isFinite(percent) ? null : roundPercent(percent),
  };
}

function priceChangeSignificance(percent: number | null): Significance {
  if (percent === null || Math.abs(percent) >= MAJOR_PERCENT) return 'major';
  return Math.abs(percent) >= MODERATE_PERCENT ? 'moderate' : 'minor';
}

function significanceOf({ event_type: type, charge, field }: WeighedFacts): Significance {
  switch (type) {
    case 'plan_added':
    case 'plan_removed':
      return 'major';
    case 'charge_added':
    case 'charge_removed':
      return MAJOR_BILLINGS.includes(charge!.billing) ? 'major' : 'moderate';
    case 'charge_changed':
      return field === 'price' ? 'major' : 'minor';
    case 'discount_added':
    case 'discount_removed':
      return 'moderate';
    default:
      return 'minor';
  }
}
