import { Field, fieldsOf, RecordTypeTag, type FieldsDeclaration } from './record-fields.js';
import { streamIds } from './natural-keys.js';

/*
 * The one declaration of every record type: a class per record (and per part of one), each field
 * with its kind, limits, nullability, optionality and documentation (`Field`). Field names follow
 * the public interface (snake_case), so a record reads the same in a request body, a queue job and
 * an event payload. From these classes come the record types below, record validation
 * (libs/contracts), the event payloads, the bounds of the read-model columns and the records'
 * OpenAPI schemas: a new field is written here and where it is used, nowhere else.
 */

/** The event log's stream_id column (varchar(400)), which holds every record's natural key. */
const MAX_STREAM_ID_LENGTH = 400;

const COMPANY_SLUG = { kind: 'company-slug', maxLength: 255 } as const;
const PAGE_SLUG = { kind: 'page-slug', maxLength: 100 } as const;
const URL = { kind: 'url', maxLength: 2048 } as const;
const IDENTIFIER = { kind: 'identifier', maxLength: 100 } as const;
const NAME = { kind: 'text', minLength: 1, maxLength: 200 } as const;
const SHORT_TEXT = { kind: 'text', minLength: 0, maxLength: 200 } as const;
const FREE_FORM = { kind: 'free-form', maxJsonLength: 10_000 } as const;
const VERSION = { kind: 'version' } as const;
const CURRENCY = { kind: 'currency' } as const;
const BOOLEAN = { kind: 'boolean' } as const;
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

export class CompanyRecord {
  static readonly description = 'Registers a company or changes its profile.';
  @RecordTypeTag('company') type!: 'company';
  @Field(COMPANY_SLUG, {
    example: 'notion.so',
    message: 'slug must be lower-case labels separated by dots',
  })
  slug!: string;
  @Field({ kind: 'text', minLength: 1, maxLength: 255 }, { example: 'Notion' }) name!: string;
  @Field({ kind: 'category' }, { example: 'Productivity' }) category!: string;
  // employees_min holds the band's lower bound as a 32-bit integer.
  @Field({ kind: 'employees', maxLength: 32, maxBound: 2 ** 31 - 1 }, { example: '1000+' })
  employees!: string;
  @Field(URL, { example: 'https://notion.so' }) url!: string;
}

export class PageRecord {
  static readonly description = 'Registers a pricing page of a known company.';
  @RecordTypeTag('page') type!: 'page';
  @Field(COMPANY_SLUG, { example: 'notion.so' }) company_slug!: string;
  @Field(PAGE_SLUG, { description: 'Empty for the primary pricing page', example: '' })
  page_slug!: string;
  @Field(URL, { example: 'https://www.notion.so/pricing' }) pricing_page_url!: string;
}

export class ScrapeRecord {
  static readonly description =
    'One scrape of a known page; natural key company + page + version + scraper.';
  @RecordTypeTag('scrape') type!: 'scrape';
  @Field(COMPANY_SLUG, { example: 'notion.so' }) company_slug!: string;
  @Field(PAGE_SLUG, { example: '' }) page_slug!: string;
  @Field(VERSION, { description: 'YYYYMMDD, a real calendar date', example: '20251016' })
  version!: string;
  @Field(URL, { example: 'https://www.notion.so/pricing' }) page_url!: string;
  @Field(URL, { nullable: true }) screenshot_url!: string | null;
  @Field(URL, { nullable: true }) markdown_url!: string | null;
  @Field(URL, { nullable: true }) html_url!: string | null;
  @Field(URL, { nullable: true }) ocr_url!: string | null;
  @Field(SCRAPER, {
    description: 'One of the configured scrapers (default scraper_1 to scraper_4)',
    example: 'scraper_1',
  })
  scraper!: string;
  @Field(BOOLEAN, { nullable: true }) valid!: boolean | null;
  @Field({ kind: 'integer', minimum: 0, maximum: 10 }, { nullable: true }) score!: number | null;
  @Field(BOOLEAN, { nullable: true }) banner_free!: boolean | null;
}

export class PricingMetricInput {
  @Field(NAME, { example: 'per user' }) display_name!: string;
  @Field(IDENTIFIER, { example: 'user_based' }) modality!: string;
}

export class ChargeInput {
  @Field(IDENTIFIER, { example: 'monthly_recurring_billed_monthly' }) billing!: string;
  @Field(CURRENCY, { example: 'USD' }) currency!: string;
  @Field({ kind: 'number', minimum: 0 }, { nullable: true, example: 10 }) price!: number | null;
  @Field(IDENTIFIER, { example: 'metered' }) charge_type!: string;
  @Field({ kind: 'object', fields: () => PricingMetricInput }, { nullable: true })
  pricing_metric!: PricingMetricInput | null;
  @Field(IDENTIFIER, { nullable: true, optional: true, example: 'licensed' })
  usage_type?: string | null;
  @Field(NAME, { example: 'Plus monthly' }) display_name!: string;
  @Field(SHORT_TEXT, { nullable: true, optional: true, example: '$10/user/month' })
  price_display?: string | null;
  @Field(FREE_FORM, { optional: true }) included_quantity?: unknown;
  @Field(FREE_FORM, { optional: true }) overage_info?: unknown;
}

export class DiscountInput {
  @Field(IDENTIFIER, { example: 'annual_discount' }) discount_category!: string;
  @Field(IDENTIFIER, { example: 'percent' }) amount_type!: string;
  @Field({ kind: 'number', minimum: null }, { example: 20 }) amount!: number;
  @Field(
    { kind: 'text', minLength: 0, maxLength: 1000 },
    { example: 'Save 20% when billed yearly' },
  )
  description!: string;
  @Field(SHORT_TEXT, { example: '12 months' }) duration!: string;
}

export class PlanInput {
  @Field(NAME, { example: 'Plus' }) display_name!: string;
  @Field(NAME, { example: 'plus' }) internal_name!: string;
  @Field(BOOLEAN, { example: false }) add_on!: boolean;
  @Field({ kind: 'list', maxItems: 100, items: () => ChargeInput }) charges!: ChargeInput[];
  @Field({ kind: 'list', maxItems: 100, items: () => DiscountInput }) discounts!: DiscountInput[];
}

export class PricingRecord {
  static readonly description =
    'The pricing extracted from one scrape; natural key company + page + version.';
  @RecordTypeTag('pricing') type!: 'pricing';
  @Field(COMPANY_SLUG, { example: 'notion.so' }) company_slug!: string;
  @Field(PAGE_SLUG, { example: '' }) page_slug!: string;
  @Field(VERSION, { example: '20251016' }) version!: string;
  @Field(SCRAPER, {
    optional: true,
    description:
      'Which scrape of that version it was extracted from; the first scraper by name when absent',
    example: 'scraper_1',
  })
  scraper?: string;
  @Field({ kind: 'list', maxItems: 100, items: () => PlanInput }) plans!: PlanInput[];
}

export class ExchangeRateRecord {
  static readonly description =
    'One exchange rate: 1 base is worth rate quote on date. Natural key date + base + quote; ' +
    'base and quote must differ.';
  @RecordTypeTag('exchange_rate') type!: 'exchange_rate';
  @Field(VERSION, {
    description: 'YYYYMMDD, a real calendar date: the day of the rate',
    example: '20251016',
  })
  date!: string;
  @Field(CURRENCY, { example: 'EUR' }) base!: string;
  @Field(CURRENCY, { description: 'Another currency than base', example: 'USD' }) quote!: string;
  @Field(
    { kind: 'number', minimum: null, exclusiveMinimum: 0, maximum: 1_000_000 },
    {
      description: 'How many quote one base is worth: above 0, at most 1,000,000',
      example: 1.0842,
    },
  )
  rate!: number;
}

/** The class of each record type, by the `type` a record carries. */
export const RECORD_CLASSES = {
  company: CompanyRecord,
  page: PageRecord,
  scrape: ScrapeRecord,
  pricing: PricingRecord,
  exchange_rate: ExchangeRateRecord,
} as const;

export type RecordType = keyof typeof RECORD_CLASSES;

export const RECORD_TYPES = Object.keys(RECORD_CLASSES) as readonly RecordType[];

/** The record type `value` names in its `type`, or null when it names none. */
export function recordTypeOf(value: unknown): RecordType | null {
  const type = (value as { type?: unknown } | null)?.type;
  return (RECORD_TYPES as readonly unknown[]).includes(type) ? (type as RecordType) : null;
}

/** A record of one type, as pushed. */
type RecordOf<T extends RecordType> = InstanceType<(typeof RECORD_CLASSES)[T]>;

/** The fields of a record type, without its `type`: what its event payloads start from. */
export type RecordFields<T extends RecordType> = Omit<RecordOf<T>, 'type'>;

/** The facts a scraper pipeline pushes. */
export type IngestRecord = { [T in RecordType]: RecordOf<T> }[RecordType];

/**
 * Every record type's declared fields (without `type`), at any depth, in their order: record
 * validation walks the lists' lengths first, and the tests make values at and past each limit.
 */
export const RECORD_FIELDS = Object.fromEntries(
  RECORD_TYPES.map((type) => [type, fieldsOf(RECORD_CLASSES[type])]),
) as { [T in RecordType]: FieldsDeclaration };
