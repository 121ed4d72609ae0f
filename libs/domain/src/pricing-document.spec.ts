import { describe, expect, it } from 'vitest';
import type { PricingExtractedPayload } from './events/pricing-extracted.event.js';
import { deterministicIds } from './ids.js';
import { buildPricingDocument } from './pricing-document.js';
import { compositePageSlug } from './slugs.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function extraction(): PricingExtractedPayload {
  const pageId = deterministicIds.page('notion.so', 'enterprise');
  return {
    snapshot_id: deterministicIds.pricingSnapshot(pageId, '20250115'),
    page_id: pageId,
    company_slug: 'notion.so',
    page_slug: 'enterprise',
    composite_slug: compositePageSlug('notion.so', 'enterprise'),
    version: '20250115',
    scrape: {
      id: deterministicIds.scrape(pageId, '20250115', 'scraper_1'),
      scraper: 'scraper_1',
      version: '20250115',
      page_url: 'https://www.notion.so/pricing/enterprise',
      captured_at: '2025-01-15T08:30:00.000Z',
    },
    plans: [
      {
        display_name: 'Plus',
        internal_name: 'plus',
        add_on: false,
        charges: [
          {
            billing: 'monthly_recurring_billed_monthly',
            currency: 'USD',
            price: 12,
            charge_type: 'recurring',
            pricing_metric: { display_name: 'per seat', modality: 'user_based' },
            usage_type: 'licensed',
            display_name: 'Plus monthly',
            price_display: '$12 per seat/month',
            included_quantity: { seats: 1 },
            overage_info: { unit_price: 0.5 },
          },
          {
            billing: 'one_time',
            currency: 'USD',
            price: 99,
            charge_type: 'flat',
            pricing_metric: null,
            display_name: 'Setup fee',
          },
        ],
        discounts: [
          {
            discount_category: 'annual_discount',
            amount_type: 'percentage',
            amount: 20,
            description: 'Save 20% yearly',
            duration: 'annual',
          },
        ],
      },
      {
        display_name: 'Enterprise',
        internal_name: 'enterprise',
        add_on: true,
        charges: [
          {
            billing: 'pricing_not_disclosed',
            currency: 'USD',
            price: null,
            charge_type: 'flat',
            pricing_metric: null,
            usage_type: null,
            display_name: 'Contact sales',
            price_display: null,
          },
        ],
        discounts: [],
      },
    ],
  };
}

describe('buildPricingDocument', () => {
  it('copies the page and version fields, with the composite slug as slug', () => {
    const document = buildPricingDocument(extraction());
    expect(document.slug).toBe('notion.enterprise');
    expect(document.company_slug).toBe('notion.so');
    expect(document.page_subslug).toBe('enterprise');
    expect(document.page_id).toBe(deterministicIds.page('notion.so', 'enterprise'));
    expect(document.version).toBe('20250115');
  });

  it('takes scrape.created_at from the capture time of the scrape', () => {
    const source = extraction();
    const document = buildPricingDocument(source);
    expect(document.scrape).toEqual({
      id: source.scrape.id,
      version: '20250115',
      page_url: 'https://www.notion.so/pricing/enterprise',
      created_at: '2025-01-15T08:30:00.000Z',
    });
  });

  it('keeps the plans, charges and discounts in order with their values', () => {
    const document = buildPricingDocument(extraction());
    expect(document.plans.map((plan) => plan.internal_name)).toEqual(['plus', 'enterprise']);
    expect(document.plans.map((plan) => plan.add_on)).toEqual([false, true]);
    const [monthly, setup] = document.plans[0]!.charges;
    expect(monthly).toMatchObject({
      billing: 'monthly_recurring_billed_monthly',
      currency: 'USD',
      price: 12,
      charge_type: 'recurring',
      usage_type: 'licensed',
      display_name: 'Plus monthly',
      price_display: '$12 per seat/month',
      included_quantity: { seats: 1 },
      overage_info: { unit_price: 0.5 },
    });
    expect(monthly!.pricing_metric).toMatchObject({
      display_name: 'per seat',
      modality: 'user_based',
    });
    expect(setup!.display_name).toBe('Setup fee');
    expect(document.plans[0]!.discounts).toEqual([
      {
        id: expect.stringMatching(UUID),
        discount_category: 'annual_discount',
        amount_type: 'percentage',
        amount: 20,
        description: 'Save 20% yearly',
        duration: 'annual',
      },
    ]);
    expect(document.plans[1]!.discounts).toEqual([]);
  });

  it('fills absent optional charge fields with null rather than leaving them out', () => {
    const setup = buildPricingDocument(extraction()).plans[0]!.charges[1]!;
    for (const field of ['usage_type', 'price_display', 'included_quantity', 'overage_info']) {
      expect(setup).toHaveProperty(field);
      expect(setup[field as keyof typeof setup]).toBeNull();
    }
  });

  it('gives a null metric for a flat charge, and keeps a null price', () => {
    const document = buildPricingDocument(extraction());
    expect(document.plans[0]!.charges[1]!.pricing_metric).toBeNull();
    const contact = document.plans[1]!.charges[0]!;
    expect(contact.pricing_metric).toBeNull();
    expect(contact.price).toBeNull();
  });

  it('gives every charge all the fields of the public Charge', () => {
    const keys = [
      'billing',
      'charge_type',
      'currency',
      'display_name',
      'id',
      'included_quantity',
      'overage_info',
      'price',
      'price_display',
      'pricing_metric',
      'usage_type',
    ];
    for (const plan of buildPricingDocument(extraction()).plans) {
      for (const charge of plan.charges) expect(Object.keys(charge).sort()).toEqual(keys);
    }
  });

  it('derives ids from the snapshot id and positions', () => {
    const source = extraction();
    const document = buildPricingDocument(source);
    const planId = deterministicIds.child(source.snapshot_id, 'plan', 0);
    const chargeId = deterministicIds.child(planId, 'charge', 0);
    expect(document.plans[0]!.id).toBe(planId);
    expect(document.plans[0]!.charges[0]!.id).toBe(chargeId);
    expect(document.plans[0]!.charges[0]!.pricing_metric!.id).toBe(
      deterministicIds.child(chargeId, 'metric', 0),
    );
    expect(document.plans[0]!.discounts[0]!.id).toBe(deterministicIds.child(planId, 'discount', 0));
  });

  it('gives the same ids when built again (a rebuild keeps every id)', () => {
    expect(buildPricingDocument(extraction())).toEqual(buildPricingDocument(extraction()));
  });

  it('gives every plan, charge, metric and discount a distinct UUID', () => {
    const document = buildPricingDocument(extraction());
    const ids = document.plans.flatMap((plan) => [
      plan.id,
      ...plan.charges.flatMap((charge) =>
        charge.pricing_metric ? [charge.id, charge.pricing_metric.id] : [charge.id],
      ),
      ...plan.discounts.map((discount) => discount.id),
    ]);
    expect(ids).toHaveLength(7);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set([...ids, document.page_id, document.scrape.id]).size).toBe(9);
  });

  it('gives another snapshot other child ids', () => {
    const source = extraction();
    const other = {
      ...source,
      snapshot_id: deterministicIds.pricingSnapshot(source.page_id, '20250116'),
    };
    expect(buildPricingDocument(other).plans[0]!.id).not.toBe(
      buildPricingDocument(source).plans[0]!.id,
    );
  });

  it('uses the company base alone as slug for a primary page', () => {
    const source = extraction();
    const primary = {
      ...source,
      page_slug: '',
      composite_slug: compositePageSlug('notion.so', ''),
    };
    const document = buildPricingDocument(primary);
    expect(document.slug).toBe('notion');
    expect(document.page_subslug).toBe('');
  });
});
