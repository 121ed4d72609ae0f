import { describe, expect, it } from 'vitest';
import { diffPricing, PRICING_CHANGE_TYPES, type PricingChange } from './pricing-diff.js';
import type { PricingDocument } from './pricing-document.js';

type Plan = PricingDocument['plans'][number];
type Charge = Plan['charges'][number];
type Discount = Plan['discounts'][number];

let nextId = 0;
/** Every id is new, as in a real later version: the diff must not see them. */
const id = () => `00000000-0000-4000-8000-${String(++nextId).padStart(12, '0')}`;

function charge(overrides: Partial<Charge> = {}): Charge {
  return {
    id: id(),
    billing: 'monthly_recurring_billed_monthly',
    currency: 'USD',
    price: 10,
    charge_type: 'metered',
    pricing_metric: { id: id(), display_name: 'per user', modality: 'user_based' },
    usage_type: 'licensed',
    display_name: 'Pro monthly',
    price_display: '$10/user/month',
    included_quantity: null,
    overage_info: null,
    ...overrides,
  };
}

function discount(overrides: Partial<Discount> = {}): Discount {
  return {
    id: id(),
    discount_category: 'annual_discount',
    amount_type: 'percent',
    amount: 20,
    description: 'Save 20% yearly',
    duration: '12 months',
    ...overrides,
  };
}

function plan(internal_name: string, overrides: Partial<Plan> = {}): Plan {
  return {
    id: id(),
    display_name: internal_name.toUpperCase(),
    internal_name,
    add_on: false,
    charges: [charge()],
    discounts: [discount()],
    ...overrides,
  };
}

function document(plans: Plan[], version = '20250105'): PricingDocument {
  return {
    slug: 'prism',
    company_slug: 'prism.io',
    page_subslug: '',
    page_id: '11111111-1111-4111-8111-111111111111',
    version,
    scrape: { id: id(), version, page_url: 'https://prism.io/pricing', created_at: '' },
    plans,
  };
}

/** The same plans with fresh ids, as the next version's extraction would have them. */
function freshIds(plans: Plan[]): Plan[] {
  return plans.map((item) => ({
    ...item,
    id: id(),
    charges: item.charges.map((one) => ({
      ...one,
      id: id(),
      pricing_metric: one.pricing_metric ? { ...one.pricing_metric, id: id() } : null,
    })),
    discounts: item.discounts.map((one) => ({ ...one, id: id() })),
  }));
}

const PRO_MONTHLY = { billing: 'monthly_recurring_billed_monthly', display_name: 'Pro monthly' };

describe('diffPricing', () => {
  it('finds nothing between a document and itself or a copy with other ids and version', () => {
    const plans = [plan('free'), plan('pro', { add_on: true })];
    expect(diffPricing(document(plans), document(plans))).toEqual([]);
    expect(diffPricing(document(plans), document(freshIds(plans), '20250310'))).toEqual([]);
  });

  it('lists a plan added and a plan removed whole, without ids', () => {
    const changes = diffPricing(document([plan('free')]), document([plan('pro')]));
    expect(changes.map((change) => change.event_type)).toEqual(['plan_added', 'plan_removed']);
    const [added, removed] = changes as [PricingChange, PricingChange];
    expect(added).toEqual({
      event_type: 'plan_added',
      plan: 'pro',
      charge: null,
      discount: null,
      field: null,
      old_value: null,
      new_value: {
        display_name: 'PRO',
        internal_name: 'pro',
        add_on: false,
        charges: [
          {
            billing: 'monthly_recurring_billed_monthly',
            currency: 'USD',
            price: 10,
            charge_type: 'metered',
            pricing_metric: { display_name: 'per user', modality: 'user_based' },
            usage_type: 'licensed',
            display_name: 'Pro monthly',
            price_display: '$10/user/month',
            included_quantity: null,
            overage_info: null,
          },
        ],
        discounts: [
          {
            discount_category: 'annual_discount',
            amount_type: 'percent',
            amount: 20,
            description: 'Save 20% yearly',
            duration: '12 months',
          },
        ],
      },
      significance: 'major',
    });
    expect(removed).toMatchObject({ plan: 'free', field: null, new_value: null });
    expect(removed.old_value).toMatchObject({ internal_name: 'free' });
    expect(JSON.stringify(changes)).not.toContain('"id"');
  });

  it('calls a higher price price_increased and a lower one price_decreased', () => {
    const before = document([plan('pro', { charges: [charge({ price: 10 })] })]);
    const up = diffPricing(before, document([plan('pro', { charges: [charge({ price: 12 })] })]));
    expect(up).toEqual([
      {
        event_type: 'price_increased',
        plan: 'pro',
        charge: PRO_MONTHLY,
        discount: null,
        field: 'price',
        old_value: 10,
        new_value: 12,
        old_monthly_equivalent: 10,
        new_monthly_equivalent: 12,
        change_percent: 20,
        significance: 'major',
      },
    ]);
    const down = diffPricing(
      before,
      document([plan('pro', { charges: [charge({ price: 9.5 })] })]),
    );
    expect(down).toMatchObject([
      { event_type: 'price_decreased', field: 'price', old_value: 10, new_value: 9.5 },
    ]);
  });

  it('calls a price to or from null, or in another currency, charge_changed', () => {
    const priced = document([plan('pro', { charges: [charge({ price: 10 })] })]);
    const unpriced = document([plan('pro', { charges: [charge({ price: null })] })]);
    expect(diffPricing(priced, unpriced)).toMatchObject([
      { event_type: 'charge_changed', field: 'price', old_value: 10, new_value: null },
    ]);
    expect(diffPricing(unpriced, priced)).toMatchObject([
      { event_type: 'charge_changed', field: 'price', old_value: null, new_value: 10 },
    ]);
    const euros = document([plan('pro', { charges: [charge({ price: 9, currency: 'EUR' })] })]);
    expect(diffPricing(priced, euros)).toMatchObject([
      { event_type: 'charge_changed', field: 'price', old_value: 10, new_value: 9 },
      { event_type: 'charge_changed', field: 'currency', old_value: 'USD', new_value: 'EUR' },
    ]);
  });

  it('lists every other changed field of a charge as charge_changed, in a fixed order', () => {
    const before = document([plan('pro', { charges: [charge()] })]);
    const after = document([
      plan('pro', {
        charges: [
          charge({
            price: 12,
            charge_type: 'flat',
            pricing_metric: { id: id(), display_name: 'per seat', modality: 'user_based' },
            usage_type: null,
            price_display: '$12/seat/month',
            included_quantity: { seats: 3 },
            overage_info: 'billed monthly',
          }),
        ],
      }),
    ]);
    const changes = diffPricing(before, after);
    expect(changes.map((change) => [change.event_type, change.field])).toEqual([
      ['price_increased', 'price'],
      ['charge_changed', 'charge_type'],
      ['charge_changed', 'pricing_metric'],
      ['charge_changed', 'usage_type'],
      ['charge_changed', 'price_display'],
      ['charge_changed', 'included_quantity'],
      ['charge_changed', 'overage_info'],
    ]);
    expect(changes[2]).toMatchObject({
      charge: PRO_MONTHLY,
      old_value: { display_name: 'per user', modality: 'user_based' },
      new_value: { display_name: 'per seat', modality: 'user_based' },
    });
    expect(changes[5]).toMatchObject({ old_value: null, new_value: { seats: 3 } });
  });

  it('compares JSON values by content, whatever the order of their keys', () => {
    const before = document([
      plan('pro', { charges: [charge({ included_quantity: { seats: 3, gb: 10 } })] }),
    ]);
    const after = document([
      plan('pro', { charges: [charge({ included_quantity: { gb: 10, seats: 3 } })] }),
    ]);
    expect(diffPricing(before, after)).toEqual([]);
  });

  it('matches charges by billing and display_name: another key is a removal and an addition', () => {
    const yearly = charge({
      billing: 'annual_recurring_billed_yearly',
      display_name: 'Pro yearly',
    });
    const before = document([plan('pro', { charges: [charge(), yearly] })]);
    const after = document([
      plan('pro', {
        charges: [
          charge({ display_name: 'Pro per month' }),
          charge({ billing: 'annual_recurring_billed_yearly', display_name: 'Pro yearly' }),
        ],
      }),
    ]);
    const changes = diffPricing(before, after);
    expect(changes).toMatchObject([
      {
        event_type: 'charge_added',
        plan: 'pro',
        charge: { billing: 'monthly_recurring_billed_monthly', display_name: 'Pro per month' },
        field: null,
        old_value: null,
        new_value: { display_name: 'Pro per month', price: 10 },
      },
      {
        event_type: 'charge_removed',
        charge: PRO_MONTHLY,
        field: null,
        old_value: { display_name: 'Pro monthly' },
        new_value: null,
      },
    ]);
  });

  it('matches discounts by category and lists their changes', () => {
    const before = document([
      plan('pro', { discounts: [discount(), discount({ discount_category: 'education' })] }),
    ]);
    const after = document([
      plan('pro', {
        discounts: [
          discount({ discount_category: 'nonprofit', amount: 50 }),
          discount({ amount: 25, description: 'Save 25% yearly' }),
        ],
      }),
    ]);
    expect(diffPricing(before, after)).toMatchObject([
      {
        event_type: 'discount_added',
        plan: 'pro',
        charge: null,
        discount: 'nonprofit',
        field: null,
        old_value: null,
        new_value: { discount_category: 'nonprofit', amount: 50 },
      },
      {
        event_type: 'discount_changed',
        discount: 'annual_discount',
        field: 'amount',
        old_value: 20,
        new_value: 25,
      },
      {
        event_type: 'discount_changed',
        discount: 'annual_discount',
        field: 'description',
        old_value: 'Save 20% yearly',
        new_value: 'Save 25% yearly',
      },
      {
        event_type: 'discount_removed',
        discount: 'education',
        old_value: { discount_category: 'education' },
        new_value: null,
      },
    ]);
  });

  it("lists a plan's own fields as charge_changed with no charge", () => {
    const before = document([plan('storage', { display_name: 'Storage', add_on: false })]);
    const after = document([plan('storage', { display_name: 'Extra storage', add_on: true })]);
    expect(diffPricing(before, after)).toEqual([
      {
        event_type: 'charge_changed',
        plan: 'storage',
        charge: null,
        discount: null,
        field: 'display_name',
        old_value: 'Storage',
        new_value: 'Extra storage',
        significance: 'minor',
      },
      {
        event_type: 'charge_changed',
        plan: 'storage',
        charge: null,
        discount: null,
        field: 'add_on',
        old_value: false,
        new_value: true,
        significance: 'minor',
      },
    ]);
  });

  it('orders plans as in the new document, then removed plans as in the old one', () => {
    const before = document([
      plan('gone-a'),
      plan('kept-b', { charges: [charge({ price: 5 })] }),
      plan('gone-c'),
      plan('kept-a', { charges: [charge({ price: 5 })] }),
    ]);
    const after = document([
      plan('kept-a', { charges: [charge({ price: 6 })] }),
      plan('new'),
      plan('kept-b', { charges: [charge({ price: 4 })] }),
    ]);
    const changes = diffPricing(before, after);
    expect(changes.map((change) => [change.event_type, change.plan])).toEqual([
      ['price_increased', 'kept-a'],
      ['plan_added', 'new'],
      ['price_decreased', 'kept-b'],
      ['plan_removed', 'gone-a'],
      ['plan_removed', 'gone-c'],
    ]);
    expect(diffPricing(before, after)).toEqual(changes);
  });

  it("orders a kept plan's changes: own fields, charges, then discounts", () => {
    const before = document([plan('pro', { display_name: 'Pro', discounts: [discount()] })]);
    const after = document([
      plan('pro', {
        display_name: 'Pro+',
        charges: [charge({ price: 11 })],
        discounts: [discount({ duration: '24 months' })],
      }),
    ]);
    expect(diffPricing(before, after).map((change) => change.event_type)).toEqual([
      'charge_changed',
      'price_increased',
      'discount_changed',
    ]);
  });

  it('pairs repeated keys by occurrence: the n-th with the n-th', () => {
    const before = document([
      plan('pro', { charges: [charge({ price: 10 }), charge({ price: 20 })] }),
    ]);
    const after = document([
      plan('pro', {
        charges: [charge({ price: 10 }), charge({ price: 25 }), charge({ price: 30 })],
      }),
    ]);
    expect(diffPricing(before, after)).toMatchObject([
      { event_type: 'price_increased', old_value: 20, new_value: 25 },
      { event_type: 'charge_added', new_value: { price: 30 } },
    ]);
    expect(diffPricing(after, before)).toMatchObject([
      { event_type: 'price_decreased', old_value: 25, new_value: 20 },
      { event_type: 'charge_removed', old_value: { price: 30 } },
    ]);
  });

  it('reverses: the diff backwards swaps additions and removals, rises and falls', () => {
    const before = document([plan('free'), plan('pro', { charges: [charge({ price: 10 })] })]);
    const after = document([plan('pro', { charges: [charge({ price: 15 })] }), plan('team')]);
    const forwards = diffPricing(before, after);
    const backwards = diffPricing(after, before);
    const opposite: Partial<Record<string, string>> = {
      plan_added: 'plan_removed',
      plan_removed: 'plan_added',
      price_increased: 'price_decreased',
    };
    expect(forwards.map((change) => change.event_type)).toEqual([
      'price_increased',
      'plan_added',
      'plan_removed',
    ]);
    expect(backwards.map((change) => change.event_type).sort()).toEqual(
      forwards.map((change) => opposite[change.event_type]).sort(),
    );
  });

  it('weighs every change: a significance each, and a size for a price change alone', () => {
    const before = document([
      plan('pro', { charges: [charge({ billing: 'annual_recurring_billed_yearly', price: 120 })] }),
    ]);
    const after = document([
      plan('pro', {
        charges: [
          charge({ billing: 'annual_recurring_billed_yearly', price: 126, price_display: '$126' }),
        ],
      }),
    ]);
    expect(diffPricing(before, after)).toMatchObject([
      {
        event_type: 'price_increased',
        old_monthly_equivalent: 10,
        new_monthly_equivalent: 10.5,
        change_percent: 5,
        significance: 'moderate',
      },
      { event_type: 'charge_changed', field: 'price_display', significance: 'minor' },
    ]);
    expect(diffPricing(before, after)[1]).not.toHaveProperty('change_percent');
  });

  it('uses only the event types of the fixed list', () => {
    expect(PRICING_CHANGE_TYPES).toHaveLength(10);
    const before = document([plan('a'), plan('b')]);
    const after = document([plan('b', { add_on: true, charges: [], discounts: [] }), plan('c')]);
    for (const change of diffPricing(before, after)) {
      expect(PRICING_CHANGE_TYPES).toContain(change.event_type);
    }
  });
});
