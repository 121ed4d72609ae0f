import { streamIds } from './natural-keys.js';

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

/**
 * The limits of one field of a record, each within what every read model and both databases
 * hold. Lengths count UTF-16 code units (JavaScript's `length`), never fewer than the characters
 * a PostgreSQL varchar(n) counts. `kind` names the field's syntax, which its pattern checks apart.
 */
export type FieldBounds =
  | { kind: 'text'; minLength: number; maxLength: number }
  | { kind: 'url' | 'company-slug' | 'page-slug' | 'identifier' | 'scraper'; maxLength: number }
  /** A size band (`N+`, `N-M`): its text, and each of its numbers. */
  | { kind: 'employees'; maxLength: number; maxBound: number }
  | { kind: 'integer'; minimum: number; maximum: number }
  /** A finite double (JSON.parse reads 1e400 as Infinity, which JSON text cannot hold). */
  | { kind: 'number'; minimum: number | null }
  /** Any JSON value, stored as sent: the length of its JSON text. */
  | { kind: 'free-form'; maxJsonLength: number }
  | { kind: 'list'; maxItems: number; items: Record<string, FieldBounds> }
  | { kind: 'object'; fields: Record<string, FieldBounds> };

/**
 * How deep arrays and objects may nest in a pushed value, the value itself being level 1. A
 * record's own structure is six levels deep; its free-form fields get the rest.
 */
export const MAX_JSON_DEPTH = 32;

/** The event log's stream_id column (varchar(400)), which holds every record's natural key. */
export const MAX_STREAM_ID_LENGTH = 400;

const COMPANY_SLUG = { kind: 'company-slug', maxLength: 255 } as const;
const PAGE_SLUG = { kind: 'page-slug', maxLength: 100 } as const;
const URL = { kind: 'url', maxLength: 2048 } as const;
const IDENTIFIER = { kind: 'identifier', maxLength: 100 } as const;
const NAME = { kind: 'text', minLength: 1, maxLength: 200 } as const;
const SHORT_TEXT = { kind: 'text', minLength: 0, maxLength: 200 } as const;
const FREE_FORM = { kind: 'free-form', maxJsonLength: 10_000 } as const;
/** What the longest slugs leave of a scrape's stream id for the scraper's name. */
const SCRAPER = {
  kind: 'scraper',
  maxLength:
    MAX_STREAM_ID_LENGTH -
    streamIds.scrape(
      'c'.repeat(COMPANY_SLUG.maxLength),
      'p'.repeat(PAGE_SLUG.maxLength),
      'YYYYMMDD',
      '',
    ).length,
} as const;

/**
 * The one declaration of every record field's limits: record validation, the OpenAPI document
 * and the read-model columns take theirs from here. Fields of a fixed form (type, category,
 * version, currency, the booleans) are bounded by their syntax alone.
 */
export const RECORD_BOUNDS = {
  company: {
    slug: COMPANY_SLUG,
    name: { kind: 'text', minLength: 1, maxLength: 255 },
    // employees_min holds the band's lower bound as a 32-bit integer.
    employees: { kind: 'employees', maxLength: 32, maxBound: 2 ** 31 - 1 },
    url: URL,
  },
  page: { company_slug: COMPANY_SLUG, page_slug: PAGE_SLUG, pricing_page_url: URL },
  scrape: {
    company_slug: COMPANY_SLUG,
    page_slug: PAGE_SLUG,
    page_url: URL,
    screenshot_url: URL,
    markdown_url: URL,
    html_url: URL,
    ocr_url: URL,
    scraper: SCRAPER,
    score: { kind: 'integer', minimum: 0, maximum: 10 },
  },
  pricing: {
    company_slug: COMPANY_SLUG,
    page_slug: PAGE_SLUG,
    scraper: SCRAPER,
    plans: {
      kind: 'list',
      maxItems: 100,
      items: {
        display_name: NAME,
        internal_name: NAME,
        charges: {
          kind: 'list',
          maxItems: 100,
          items: {
            billing: IDENTIFIER,
            price: { kind: 'number', minimum: 0 },
            charge_type: IDENTIFIER,
            pricing_metric: {
              kind: 'object',
              fields: { display_name: NAME, modality: IDENTIFIER },
            },
            usage_type: IDENTIFIER,
            display_name: NAME,
            price_display: SHORT_TEXT,
            included_quantity: FREE_FORM,
            overage_info: FREE_FORM,
          },
        },
        discounts: {
          kind: 'list',
          maxItems: 100,
          items: {
            discount_category: IDENTIFIER,
            amount_type: IDENTIFIER,
            amount: { kind: 'number', minimum: null },
            description: { kind: 'text', minLength: 0, maxLength: 1000 },
            duration: SHORT_TEXT,
          },
        },
      },
    },
  },
} as const satisfies {
  [T in RecordType]: { [F in keyof Extract<IngestRecord, { type: T }>]?: FieldBounds };
};
