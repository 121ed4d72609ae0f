/**
 * The facts a scraper pipeline pushes. Field names follow the public interface (snake_case),
 * so a record reads the same in a request body, a queue job and an event payload.
 */
export interface CompanyRecord {
  type: 'company';
  slug: string;
  name: string;
  category: string;
  employees: string;
  url: string;
}

export interface PageRecord {
  type: 'page';
  company_slug: string;
  /** Empty string for the company's primary pricing page. */
  page_slug: string;
  pricing_page_url: string;
}

export interface ScrapeRecord {
  type: 'scrape';
  company_slug: string;
  page_slug: string;
  /** Scrape date, YYYYMMDD. */
  version: string;
  page_url: string;
  screenshot_url: string | null;
  markdown_url: string | null;
  html_url: string | null;
  ocr_url: string | null;
  scraper: string;
  valid: boolean | null;
  score: number | null;
  banner_free: boolean | null;
}

export interface PricingMetricInput {
  display_name: string;
  modality: string;
}

export interface ChargeInput {
  billing: string;
  currency: string;
  price: number | null;
  charge_type: string;
  pricing_metric: PricingMetricInput | null;
  usage_type?: string | null;
  display_name: string;
  price_display?: string | null;
  included_quantity?: unknown;
  overage_info?: unknown;
}

export interface DiscountInput {
  discount_category: string;
  amount_type: string;
  amount: number;
  description: string;
  duration: string;
}

export interface PlanInput {
  display_name: string;
  internal_name: string;
  add_on: boolean;
  charges: ChargeInput[];
  discounts: DiscountInput[];
}

export interface PricingRecord {
  type: 'pricing';
  company_slug: string;
  page_slug: string;
  version: string;
  /** Which scrape of that version it was extracted from; the first scraper by name when absent. */
  scraper?: string;
  plans: PlanInput[];
}

export type IngestRecord = CompanyRecord | PageRecord | ScrapeRecord | PricingRecord;
export type RecordType = IngestRecord['type'];

export const RECORD_TYPES: readonly RecordType[] = ['company', 'page', 'scrape', 'pricing'];
