import type { PricingPageEntity } from '#app/persistence';

/** A pricing page as the interface shapes it (docs/API.md, "Resources"): PageReferenceDto. */
export function pageReference(page: PricingPageEntity, companyName: string) {
  return {
    company_slug: page.companySlug,
    page_slug: page.pageSlug,
    company_name: companyName,
    pricing_page_url: page.pricingPageUrl,
  };
}
