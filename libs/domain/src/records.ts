import { streamIds } from './natural-keys.js';

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
  /**
   * A finite double (JSON.parse reads 1e400 as Infinity, which JSON text cannot hold), at least
   * `minimum`, above `exclusiveMinimum` and at most `maximum` where they are given.
   */
  | { kind: 'number'; minimum: number | null; exclusiveMinimum?: number; maximum?: number }
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
const MAX_STREAM_ID_LENGTH = 400;

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

/** A field's syntax alone bounds it: a category, a YYYYMMDD date, an ISO 4217 code, a boolean. */
type FixedKind = 'category' | 'version' | 'currency' | 'boolean';

/**
 * One declared field of a record: its kind and bounds, and whether it may be null (`nullable`)
 * or left out (`optional`).
 */
export type FieldDeclaration = (
  | Exclude<FieldBounds, { kind: 'list' | 'object' }>
  | { kind: FixedKind }
  | { kind: 'list'; maxItems: number; items: FieldsDeclaration }
  | { kind: 'object'; fields: FieldsDeclaration }
) & { nullable?: boolean; optional?: boolean };

export type FieldsDeclaration = { readonly [field: string]: FieldDeclaration };

const VERSION = { kind: 'version' } as const;
const CURRENCY = { kind: 'currency' } as const;
const BOOLEAN = { kind: 'boolean' } as const;

const PAGE_KEY = {
  company_slug: COMPANY_SLUG,
  /** Empty string for the company's primary pricing page. */
  page_slug: PAGE_SLUG,
} as const;

/**
 * The one declaration of every record type: each field, in the order records show them, with its
 * kind, bounds, nullability and optionality. The record types below derive from it, and so do
 * RECORD_BOUNDS (record validation and the read-model columns), the OpenAPI schemas of the
 * records and the event payloads; the validation and OpenAPI classes must have exactly these
 * fields (recordClasses). Field names follow the public interface (snake_case), so a record
 * reads the same in a request body, a queue job and an event payload.
 */
export const RECORD_FIELDS = {
  company: {
    slug: COMPANY_SLUG,
    name: { kind: 'text', minLength: 1, maxLength: 255 },
    category: { kind: 'category' },
    // employees_min holds the band's lower bound as a 32-bit integer.
    employees: { kind: 'employees', maxLength: 32, maxBound: 2 ** 31 - 1 },
    url: URL,
  },
  page: { ...PAGE_KEY, pricing_page_url: URL },
  scrape: {
    ...PAGE_KEY,
    /** Scrape date, YYYYMMDD. */
    version: VERSION,
    page_url: URL,
    screenshot_url: { ...URL, nullable: true },
    markdown_url: { ...URL, nullable: true },
    html_url: { ...URL, nullable: true },
    ocr_url: { ...URL, nullable: true },
    scraper: SCRAPER,
    valid: { ...BOOLEAN, nullable: true },
    score: { kind: 'integer', minimum: 0, maximum: 10, nullable: true },
    banner_free: { ...BOOLEAN, nullable: true },
  },
  pricing: {
    ...PAGE_KEY,
    version: VERSION,
    /** Which scrape of that version it was extracted from; the first scraper by name when absent. */
    scraper: { ...SCRAPER, optional: true },
    plans: {
      kind: 'list',
      maxItems: 100,
      items: {
        display_name: NAME,
        internal_name: NAME,
        add_on: BOOLEAN,
        charges: {
          kind: 'list',
          maxItems: 100,
          items: {
            billing: IDENTIFIER,
            currency: CURRENCY,
            price: { kind: 'number', minimum: 0, nullable: true },
            charge_type: IDENTIFIER,
            pricing_metric: {
              kind: 'object',
              fields: { display_name: NAME, modality: IDENTIFIER },
              nullable: true,
            },
            usage_type: { ...IDENTIFIER, nullable: true, optional: true },
            display_name: NAME,
            price_display: { ...SHORT_TEXT, nullable: true, optional: true },
            included_quantity: { ...FREE_FORM, optional: true },
            overage_info: { ...FREE_FORM, optional: true },
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
  /** 1 `base` is worth `rate` `quote` on `date`. */
  exchange_rate: {
    date: VERSION,
    base: CURRENCY,
    quote: CURRENCY,
    rate: { kind: 'number', minimum: null, exclusiveMinimum: 0, maximum: 1_000_000 },
  },
} as const satisfies { [type: string]: FieldsDeclaration };

export type RecordType = keyof typeof RECORD_FIELDS;

export const RECORD_TYPES = Object.keys(RECORD_FIELDS) as readonly RecordType[];

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The value a declared field holds. */
type ValueOf<D> = D extends { kind: 'list'; items: infer I }
  ? ValuesOf<I>[]
  : D extends { kind: 'object'; fields: infer F }
    ? ValuesOf<F>
    : D extends { kind: 'integer' | 'number' }
      ? number
      : D extends { kind: 'boolean' }
        ? boolean
        : D extends { kind: 'free-form' }
          ? unknown
          : string;

type FieldValue<D> = D extends { nullable: true } ? ValueOf<D> | null : ValueOf<D>;

/** The values of declared fields, as a record carries them. */
type ValuesOf<F> = Simplify<
  {
    -readonly [K in keyof F as F[K] extends { optional: true } ? never : K]: FieldValue<F[K]>;
  } & {
    -readonly [K in keyof F as F[K] extends { optional: true } ? K : never]?: FieldValue<F[K]>;
  }
>;

/** The fields of a record type, without its `type`: what its event payloads start from. */
export type RecordFields<T extends RecordType> = ValuesOf<(typeof RECORD_FIELDS)[T]>;

/** A record of one type, as pushed. */
export type RecordOf<T extends RecordType> = Simplify<{ type: T } & RecordFields<T>>;

export type CompanyRecord = RecordOf<'company'>;
export type PageRecord = RecordOf<'page'>;
export type ScrapeRecord = RecordOf<'scrape'>;
export type PricingRecord = RecordOf<'pricing'>;
export type PlanInput = PricingRecord['plans'][number];
export type ChargeInput = PlanInput['charges'][number];
export type DiscountInput = PlanInput['discounts'][number];
export type PricingMetricInput = NonNullable<ChargeInput['pricing_metric']>;
export type ExchangeRateRecord = RecordOf<'exchange_rate'>;

/** The facts a scraper pipeline pushes. */
export type IngestRecord = { [T in RecordType]: RecordOf<T> }[RecordType];

/** The bounded fields of declared fields (a field bounded by its syntax alone is left out). */
type BoundsOf<F> = {
  -readonly [K in keyof F as F[K] extends { kind: FixedKind } ? never : K]: F[K] extends {
    kind: 'list';
    maxItems: infer M;
    items: infer I;
  }
    ? { kind: 'list'; maxItems: M; items: BoundsOf<I> }
    : F[K] extends { kind: 'object'; fields: infer O }
      ? { kind: 'object'; fields: BoundsOf<O> }
      : Omit<F[K], 'nullable' | 'optional'>;
};

/** The bounded fields of `fields`, in their order. */
function boundsOf<F extends FieldsDeclaration>(fields: F): BoundsOf<F> {
  return boundedFields(fields) as BoundsOf<F>;
}

function boundedFields(fields: FieldsDeclaration): Record<string, FieldBounds> {
  const bounds: Record<string, FieldBounds> = {};
  for (const [name, field] of Object.entries(fields)) {
    const { nullable: _nullable, optional: _optional, ...declared } = field;
    switch (declared.kind) {
      case 'category':
      case 'version':
      case 'currency':
      case 'boolean':
        break;
      case 'list':
        bounds[name] = {
          kind: 'list',
          maxItems: declared.maxItems,
          items: boundedFields(declared.items),
        };
        break;
      case 'object':
        bounds[name] = { kind: 'object', fields: boundedFields(declared.fields) };
        break;
      default:
        bounds[name] = declared;
    }
  }
  return bounds;
}

/**
 * Every record field's limits, taken from RECORD_FIELDS: record validation, the OpenAPI
 * document and the read-model columns take theirs from here. Fields of a fixed form (type,
 * category, version, currency, the booleans) are bounded by their syntax alone.
 */
export const RECORD_BOUNDS = {
  company: boundsOf(RECORD_FIELDS.company),
  page: boundsOf(RECORD_FIELDS.page),
  scrape: boundsOf(RECORD_FIELDS.scrape),
  pricing: boundsOf(RECORD_FIELDS.pricing),
  exchange_rate: boundsOf(RECORD_FIELDS.exchange_rate),
} satisfies { [T in RecordType]: BoundsOf<(typeof RECORD_FIELDS)[T]> };
