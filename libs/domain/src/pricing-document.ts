import { deterministicIds } from './ids.js';
import type { PricingExtractedPayload } from './events/pricing-extracted.event.js';

export interface PricingDocument {
  slug: string;
  company_slug: string;
  page_subslug: string;
  page_id: string;
  version: string;
  scrape: { id: string; version: string; page_url: string; created_at: string };
  plans: {
    id: string;
    display_name: string;
    internal_name: string;
    add_on: boolean;
    charges: {
      id: string;
      billing: string;
      currency: string;
      price: number | null;
      charge_type: string;
      pricing_metric: { id: string; display_name: string; modality: string } | null;
      usage_type: string | null;
      display_name: string;
      price_display: string | null;
      included_quantity: unknown;
      overage_info: unknown;
    }[];
    discounts: {
      id: string;
      discount_category: string;
      amount_type: string;
      amount: number;
      description: string;
      duration: string;
    }[];
  }[];
}

/**
 * The pricing structure as the API serves it, built once per extraction. Every field is
 * present (null rather than missing) and every id is derived from the extraction's own ids.
 */
export function buildPricingDocument(extraction: PricingExtractedPayload): PricingDocument {
  return {
    slug: extraction.composite_slug,
    company_slug: extraction.company_slug,
    page_subslug: extraction.page_slug,
    page_id: extraction.page_id,
    version: extraction.version,
    scrape: {
      id: extraction.scrape.id,
      version: extraction.scrape.version,
      page_url: extraction.scrape.page_url,
      created_at: extraction.scrape.captured_at,
    },
    plans: extraction.plans.map((plan, planIndex) => {
      const planId = deterministicIds.child(extraction.snapshot_id, 'plan', planIndex);
      return {
        id: planId,
        display_name: plan.display_name,
        internal_name: plan.internal_name,
        add_on: plan.add_on,
        charges: plan.charges.map((charge, chargeIndex) => {
          const chargeId = deterministicIds.child(planId, 'charge', chargeIndex);
          return {
            id: chargeId,
            billing: charge.billing,
            currency: charge.currency,
            price: charge.price,
            charge_type: charge.charge_type,
            pricing_metric: charge.pricing_metric
              ? {
                  id: deterministicIds.child(chargeId, 'metric', 0),
                  display_name: charge.pricing_metric.display_name,
                  modality: charge.pricing_metric.modality,
                }
              : null,
            usage_type: charge.usage_type ?? null,
            display_name: charge.display_name,
            price_display: charge.price_display ?? null,
            included_quantity: charge.included_quantity ?? null,
            overage_info: charge.overage_info ?? null,
          };
        }),
        discounts: plan.discounts.map((discount, discountIndex) => ({
          id: deterministicIds.child(planId, 'discount', discountIndex),
          ...discount,
        })),
      };
    }),
  };
}
