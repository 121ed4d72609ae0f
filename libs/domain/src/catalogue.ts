/** The eight company categories, spelled as the live service spells them. */
export const CATEGORIES = [
  'Communication',
  'Productivity',
  'Development',
  'Marketing',
  'Sales',
  'Customer Support',
  'Finance',
  'HR',
] as const;

export type Category = (typeof CATEGORIES)[number];

/** The category `text` names in any case, in its canonical spelling; undefined for none. */
export function categoryNamed(text: string): Category | undefined {
  return CATEGORIES.find((known) => known.toLowerCase() === text.toLowerCase());
}

/** The billing values the interface names; billing is an open vocabulary, so others are accepted. */
export const BILLING_VALUES = [
  'monthly_recurring_billed_monthly',
  'monthly_recurring_billed_yearly',
  'annual_recurring_billed_yearly',
  'one_time',
  'freemium',
  'pricing_not_disclosed',
] as const;

/** An open vocabulary (charge_type, usage_type, modality, ...): any lower-case identifier. */
export const OPEN_IDENTIFIER = /^[a-z][a-z0-9_]*$/;

const EMPLOYEE_BAND = /^(\d+)(?:\+|-(\d+))$/;

/** Lower bound of a size band (`1000+` -> 1000, `51-200` -> 51), or null when it is not a band. */
export function employeeBandLowerBound(band: string): number | null {
  const match = EMPLOYEE_BAND.exec(band);
  if (!match) return null;
  const lower = Number(match[1]);
  if (match[2] !== undefined && Number(match[2]) < lower) return null;
  return lower;
}
