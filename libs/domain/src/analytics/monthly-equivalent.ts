/**
 * What a charge costs per month, in its own currency, so that plans billed differently compare:
 * monthly billings are their price, a yearly total is a twelfth of it, a free tier is 0 whatever
 * its price says. A one-time fee, an undisclosed price, a billing we do not know (the
 * vocabulary is open) and a missing price have none.
 */
export function monthlyEquivalent(billing: string, price: number | null): number | null {
  if (billing === 'freemium') return 0;
  if (price === null) return null;
  switch (billing) {
    case 'monthly_recurring_billed_monthly':
    case 'monthly_recurring_billed_yearly':
      return price;
    case 'annual_recurring_billed_yearly':
      return price / 12;
    default:
      return null;
  }
}

/** Money figures are computed unrounded and rounded once, to 4 decimals, when written. */
export function roundMoney(value: number): number {
  return roundTo(value, 4);
}

/** A percentage (a change's change_percent), rounded once, to 2 decimals, when written. */
export function roundPercent(value: number): number {
  return roundTo(value, 2);
}

/** Halves away from zero, so that a rise and a fall of the same size round alike. */
function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  const scaled = Math.round(Math.abs(value) * factor);
  // Past 2^53 a double holds no such decimal to round (and the scaling may overflow).
  return Number.isSafeInteger(scaled) ? (Math.sign(value) * scaled) / factor : value;
}
