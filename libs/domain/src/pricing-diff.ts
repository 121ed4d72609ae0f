import { weighChange, type ChangeWeight } from './change-significance.js';
import { canonicalJson } from './content-hash.js';
import type { PricingDocument } from './pricing-document.js';

/** What a change is; these strings are stored by clients (and a change feed): they never change. */
export const PRICING_CHANGE_TYPES = [
  'plan_added',
  'plan_removed',
  'price_increased',
  'price_decreased',
  'charge_added',
  'charge_removed',
  'charge_changed',
  'discount_added',
  'discount_removed',
  'discount_changed',
] as const;

export type PricingChangeType = (typeof PRICING_CHANGE_TYPES)[number];

type Plan = PricingDocument['plans'][number];
type Charge = Plan['charges'][number];
type Discount = Plan['discounts'][number];

/** A charge as matched between versions: its billing and display name. */
export interface ChargeKey {
  billing: string;
  display_name: string;
}

/** A change as the comparison finds it, before it is weighed. */
interface ChangeFacts {
  event_type: PricingChangeType;
  /** internal_name of the plan the change is in (or of the plan added or removed). */
  plan: string;
  /** The charge changed, added or removed; null when the change is not about a charge. */
  charge: ChargeKey | null;
  /** discount_category of the discount changed, added or removed; else null. */
  discount: string | null;
  /** The field that changed; null when a whole plan, charge or discount came or went. */
  field: string | null;
  /** Null for an addition; the whole item (without ids) for a removal. */
  old_value: unknown;
  /** Null for a removal; the whole item (without ids) for an addition. */
  new_value: unknown;
}

/** A change with how much it matters (change-significance.ts). */
export type PricingChange = ChangeFacts & ChangeWeight;

/** Fields compared, in the order their changes are listed. The matching keys are not among them. */
const PLAN_FIELDS = ['display_name', 'add_on'] as const;
const CHARGE_FIELDS = [
  'price',
  'currency',
  'charge_type',
  'pricing_metric',
  'usage_type',
  'price_display',
  'included_quantity',
  'overage_info',
] as const;
const DISCOUNT_FIELDS = ['amount_type', 'amount', 'description', 'duration'] as const;

/**
 * The changes from one pricing document to another (of the same page). Plans match by
 * internal_name, charges within a plan by billing and display_name, discounts within a plan by
 * discount_category; when a key occurs several times in one document, the n-th occurrence
 * matches the n-th. Ids are not compared (each version has its own).
 *
 * A price that goes up or down is price_increased or price_decreased; a price to or from null,
 * or one whose currency changed too, has no direction and is charge_changed like any other
 * field of a charge. A change of a plan's own fields (display_name, add_on) is charge_changed
 * with `charge: null`: the fixed list has no plan-level change, and those fields describe what
 * every charge of the plan sells.
 *
 * Order, stable for the same two documents: plans in the order of `to`, then the plans removed
 * in the order of `from`; within a plan kept, its own fields, then its charges, then its
 * discounts (each in the order of `to`, then the removed ones in the order of `from`); within
 * an item, its fields in a fixed order.
 *
 * Each change is then weighed (weighChange): its significance and, for a price change, its size.
 */
export function diffPricing(from: PricingDocument, to: PricingDocument): PricingChange[] {
  return pairUp(from.plans, to.plans, (plan) => plan.internal_name)
    .flatMap(({ before, after }) => {
      if (!before) return [whole('plan_added', after!.internal_name, null, null, after!)];
      if (!after) return [whole('plan_removed', before.internal_name, null, null, before)];
      return diffPlan(before, after);
    })
    .map((change) => ({ ...change, ...weighChange(change) }));
}

function diffPlan(before: Plan, after: Plan): ChangeFacts[] {
  const plan = after.internal_name;
  const own = changedFields(before, after, PLAN_FIELDS).map((change) => ({
    event_type: 'charge_changed' as const,
    plan,
    charge: null,
    discount: null,
    ...change,
  }));
  const charges = pairUp(before.charges, after.charges, (charge) =>
    JSON.stringify([charge.billing, charge.display_name]),
  ).flatMap(({ before: old, after: current }) => {
    if (!old) return [whole('charge_added', plan, chargeKey(current!), null, current!)];
    if (!current) return [whole('charge_removed', plan, chargeKey(old), null, old)];
    return changedFields(old, current, CHARGE_FIELDS).map((change) => ({
      event_type: chargeChangeType(old, current, change.field),
      plan,
      charge: chargeKey(current),
      discount: null,
      ...change,
    }));
  });
  const discounts = pairUp(
    before.discounts,
    after.discounts,
    (discount) => discount.discount_category,
  ).flatMap(({ before: old, after: current }) => {
    if (!old) return [whole('discount_added', plan, null, current!.discount_category, current!)];
    if (!current) return [whole('discount_removed', plan, null, old.discount_category, old)];
    return changedFields(old, current, DISCOUNT_FIELDS).map((change) => ({
      event_type: 'discount_changed' as const,
      plan,
      charge: null,
      discount: current.discount_category,
      ...change,
    }));
  });
  return [...own, ...charges, ...discounts];
}

function chargeChangeType(before: Charge, after: Charge, field: string): PricingChangeType {
  if (field !== 'price' || before.currency !== after.currency) return 'charge_changed';
  if (before.price === null || after.price === null) return 'charge_changed';
  return after.price > before.price ? 'price_increased' : 'price_decreased';
}

function chargeKey(charge: Charge): ChargeKey {
  return { billing: charge.billing, display_name: charge.display_name };
}

/** An addition (`before` null) or a removal of a whole plan, charge or discount. */
function whole(
  event_type: PricingChangeType,
  plan: string,
  charge: ChargeKey | null,
  discount: string | null,
  item: Plan | Charge | Discount,
): ChangeFacts {
  const value = withoutIds(item);
  const added = event_type.endsWith('_added');
  return {
    event_type,
    plan,
    charge,
    discount,
    field: null,
    old_value: added ? null : value,
    new_value: added ? value : null,
  };
}

/**
 * The fields whose content differs. A field holding the same value in both (most of them: text,
 * numbers) is not serialised at all; objects (a metric, tiers) are compared by their JSON.
 */
function changedFields<T extends object>(
  before: T,
  after: T,
  fields: readonly (keyof T & string)[],
): { field: string; old_value: unknown; new_value: unknown }[] {
  return fields
    .filter((field) => before[field] !== after[field])
    .map((field) => ({
      field,
      old_value: withoutIds(before[field]),
      new_value: withoutIds(after[field]),
    }))
    .filter((change) => canonicalJson(change.old_value) !== canonicalJson(change.new_value));
}

/** A copy without the `id` of the item and of its parts: ids differ from version to version. */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'id')
      .map(([key, inner]) => [key, withoutIds(inner)]),
  );
}

/**
 * Both lists' items paired by key (the n-th of a key with the n-th): the items of `after` in
 * their order, each with its match or none, then the unmatched items of `before` in theirs.
 */
function pairUp<T>(
  before: T[],
  after: T[],
  keyOf: (item: T) => string,
): { before?: T; after?: T }[] {
  const waiting = new Map<string, number[]>();
  before.forEach((item, index) => {
    const key = keyOf(item);
    waiting.set(key, [...(waiting.get(key) ?? []), index]);
  });
  const matched = new Set<number>();
  const paired = after.map((item) => {
    const index = waiting.get(keyOf(item))?.shift();
    if (index === undefined) return { after: item };
    matched.add(index);
    return { before: before[index], after: item };
  });
  const removed = before.filter((_item, index) => !matched.has(index));
  return [...paired, ...removed.map((item) => ({ before: item }))];
}
