import type {
  CompanyRecord,
  ExchangeRateRecord,
  PageRecord,
  PricingRecord,
  ScrapeRecord,
} from '#app/contracts';

/** Small valid records for tests; override any field. */
export const records = {
  company: (slug: string, overrides: Partial<CompanyRecord> = {}): CompanyRecord => ({
    type: 'company',
    slug,
    name: `Company ${slug}`,
    category: 'Productivity',
    employees: '51-200',
    url: `https://${slug}`,
    ...overrides,
  }),
  page: (companySlug: string, pageSlug = '', overrides: Partial<PageRecord> = {}): PageRecord => ({
    type: 'page',
    company_slug: companySlug,
    page_slug: pageSlug,
    pricing_page_url: `https://${companySlug}/pricing${pageSlug ? `/${pageSlug}` : ''}`,
    ...overrides,
  }),
  scrape: (
    companySlug: string,
    pageSlug: string,
    version: string,
    overrides: Partial<ScrapeRecord> = {},
  ): ScrapeRecord => ({
    type: 'scrape',
    company_slug: companySlug,
    page_slug: pageSlug,
    version,
    page_url: `https://${companySlug}/pricing`,
    screenshot_url: `https://cdn.example.com/${companySlug}/${version}/page.png`,
    markdown_url: `https://cdn.example.com/${companySlug}/${version}/page.md`,
    html_url: null,
    ocr_url: null,
    scraper: 'scraper_1',
    valid: true,
    score: 8,
    banner_free: true,
    ...overrides,
  }),
  pricing: (
    companySlug: string,
    pageSlug: string,
    version: string,
    price = 10,
    overrides: Partial<PricingRecord> = {},
  ): PricingRecord => ({
    type: 'pricing',
    company_slug: companySlug,
    page_slug: pageSlug,
    version,
    plans: [
      {
        display_name: 'Pro',
        internal_name: 'pro',
        add_on: false,
        charges: [
          {
            billing: 'monthly_recurring_billed_monthly',
            currency: 'USD',
            price,
            charge_type: 'metered',
            pricing_metric: { display_name: 'per user', modality: 'user_based' },
            usage_type: 'licensed',
            display_name: 'Pro monthly',
            price_display: `$${price}/user/month`,
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
    ],
    ...overrides,
  }),
  exchangeRate: (
    date: string,
    overrides: Partial<ExchangeRateRecord> = {},
  ): ExchangeRateRecord => ({
    type: 'exchange_rate',
    date,
    base: 'EUR',
    quote: 'USD',
    rate: 1.0842,
    ...overrides,
  }),
};
