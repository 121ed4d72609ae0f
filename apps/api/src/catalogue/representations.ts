import type { CompanyEntity, PricingPageEntity, ScrapeFileEntity } from '#app/persistence';

/** Read-model rows as the interface shapes them (docs/API.md, "Resources"); entities never leave the API. */
export function companySummary(company: CompanyEntity) {
  return {
    id: company.id,
    name: company.name,
    slug: company.slug,
    category: company.category,
    employees: company.employees,
    url: company.url,
    created_at: company.createdAt,
  };
}

export function companyDetail(company: CompanyEntity) {
  return { ...companySummary(company), updated_at: company.updatedAt };
}

export function pageReference(page: PricingPageEntity, companyName: string) {
  return {
    company_slug: page.companySlug,
    page_slug: page.pageSlug,
    company_name: companyName,
    pricing_page_url: page.pricingPageUrl,
  };
}

export function scrapeFile(file: ScrapeFileEntity) {
  return {
    slug: file.companySlug,
    version: file.version,
    page_url: file.pageUrl,
    screenshot_url: file.screenshotUrl,
    markdown_url: file.markdownUrl,
    html_url: file.htmlUrl,
    ocr_url: file.ocrUrl,
    scraper: file.scraper,
    valid: file.valid,
    score: file.score,
    banner_free: file.bannerFree,
    created_at: file.createdAt,
    updated_at: file.updatedAt,
  };
}
