import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import {
  CATEGORIES,
  MAX_JSON_DEPTH,
  RECORD_FIELDS,
  RECORD_TYPES,
  type ChargeInput,
  type CompanyRecord,
  type DiscountInput,
  type ExchangeRateRecord,
  type FieldDeclaration,
  type PageRecord,
  type PlanInput,
  type PricingMetricInput,
  type PricingRecord,
  type ScrapeRecord,
} from '#app/domain';
import { ANY_JSON_VALUE } from '../openapi/any-json-value.js';
import { PATTERNS } from '../openapi/patterns.js';

/**
 * Bodies of the ingestion routes, as documentation classes. The records are checked by
 * libs/contracts (record-validation.ts): these classes describe the same rules for readers,
 * from the same declaration (RECORD_FIELDS in libs/domain), and have exactly its fields
 * (recordClasses, in the controller).
 */

const { company, page, scrape, pricing, exchange_rate } = RECORD_FIELDS;
const plan = pricing.plans.items;
const charge = plan.charges.items;
const discount = plan.discounts.items;

/** The schema keywords a declared field gives its property. */
interface Keywords {
  type?: StringConstructor | NumberConstructor | BooleanConstructor | 'integer';
  nullable?: true;
  pattern?: string;
  enum?: readonly string[];
  anyOf?: typeof ANY_JSON_VALUE.anyOf;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  /**
   * The bound itself, as OpenAPI 3.1 (this document) writes it: Nest passes the value through as
   * given, but types it as OpenAPI 3.0's flag.
   */
  exclusiveMinimum?: boolean;
  maximum?: number;
  maxItems?: number;
  required?: false;
}

/** The JSON type of each kind of field; a list or an object names its class at the property. */
const TYPES = {
  text: String,
  url: String,
  'company-slug': String,
  'page-slug': String,
  identifier: String,
  scraper: String,
  employees: String,
  category: String,
  version: String,
  currency: String,
  integer: 'integer',
  number: Number,
  boolean: Boolean,
  'free-form': undefined,
  list: undefined,
  object: undefined,
} as const satisfies Record<FieldDeclaration['kind'], Keywords['type']>;

/**
 * A declared field (RECORD_FIELDS) as the keywords of its schema: its type, whether it may be
 * null or left out, its syntax and its bounds. Its description and example are the property's.
 */
function declared(field: FieldDeclaration): Keywords {
  const type = TYPES[field.kind];
  return {
    ...(type ? { type } : {}),
    ...(field.nullable ? { nullable: true } : {}),
    ...syntax(field),
    ...bounds(field),
    ...(field.optional ? { required: false } : {}),
  };
}

function syntax(field: FieldDeclaration): Keywords {
  switch (field.kind) {
    case 'company-slug':
      return { pattern: PATTERNS.companySlug };
    case 'page-slug':
      return { pattern: PATTERNS.pageSlug };
    case 'identifier':
      return { pattern: PATTERNS.identifier };
    case 'employees':
      return { pattern: PATTERNS.employees };
    case 'version':
      return { pattern: PATTERNS.version };
    case 'currency':
      return { pattern: PATTERNS.currency };
    case 'category':
      return { enum: CATEGORIES };
    case 'free-form':
      return ANY_JSON_VALUE;
    default:
      return {};
  }
}

function bounds(field: FieldDeclaration): Keywords {
  switch (field.kind) {
    case 'text':
      return field.minLength > 0
        ? { minLength: field.minLength, maxLength: field.maxLength }
        : { maxLength: field.maxLength };
    case 'url':
    case 'company-slug':
    case 'page-slug':
    case 'identifier':
    case 'scraper':
    case 'employees':
      return { maxLength: field.maxLength };
    case 'integer':
      return { minimum: field.minimum, maximum: field.maximum };
    case 'number':
      return {
        ...(field.minimum === null ? {} : { minimum: field.minimum }),
        ...(field.exclusiveMinimum === undefined
          ? {}
          : { exclusiveMinimum: field.exclusiveMinimum as unknown as boolean }),
        ...(field.maximum === undefined ? {} : { maximum: field.maximum }),
      };
    case 'list':
      return { maxItems: field.maxItems };
    default:
      return {};
  }
}

/** What record validation allows in a free-form field (jsonShapeProblem in libs/contracts). */
const FREE_FORM =
  `Any JSON value, stored as given, at most ${charge.included_quantity.maxJsonLength} ` +
  `characters as JSON text. Like every part of a record, it nests at most ${MAX_JSON_DEPTH} ` +
  'levels, holds no NUL character and no lone UTF-16 surrogate, has finite numbers only, and ' +
  'uses no key every JavaScript object inherits (constructor, __proto__, toString...)';

const URL_DESCRIPTION = `An http(s) URL, at most ${company.url.maxLength} characters`;

@ApiSchema({ name: 'CompanyRecord', description: 'Registers a company or changes its profile.' })
export class CompanyRecordDto implements CompanyRecord {
  @ApiProperty({ enum: ['company'] })
  type!: 'company';

  @ApiProperty({ ...declared(company.slug), example: 'notion.so' })
  slug!: string;

  @ApiProperty({ ...declared(company.name), example: 'Notion' })
  name!: string;

  @ApiProperty({ ...declared(company.category), example: 'Productivity' })
  category!: string;

  @ApiProperty({
    ...declared(company.employees),
    description: `N+ or N-M with M >= N, each at most ${company.employees.maxBound}`,
    example: '1000+',
  })
  employees!: string;

  @ApiProperty({
    ...declared(company.url),
    description: URL_DESCRIPTION,
    example: 'https://notion.so',
  })
  url!: string;
}

@ApiSchema({ name: 'PageRecord', description: 'Registers a pricing page of a known company.' })
export class PageRecordDto implements PageRecord {
  @ApiProperty({ enum: ['page'] })
  type!: 'page';

  @ApiProperty({ ...declared(page.company_slug), example: 'notion.so' })
  company_slug!: string;

  @ApiProperty({
    ...declared(page.page_slug),
    description: 'Empty for the primary pricing page',
    example: '',
  })
  page_slug!: string;

  @ApiProperty({
    ...declared(page.pricing_page_url),
    description: URL_DESCRIPTION,
    example: 'https://www.notion.so/pricing',
  })
  pricing_page_url!: string;
}

@ApiSchema({
  name: 'ScrapeRecord',
  description: 'One scrape of a known page; natural key company + page + version + scraper.',
})
export class ScrapeRecordDto implements ScrapeRecord {
  @ApiProperty({ enum: ['scrape'] })
  type!: 'scrape';

  @ApiProperty({ ...declared(scrape.company_slug), example: 'notion.so' })
  company_slug!: string;

  @ApiProperty({ ...declared(scrape.page_slug), example: '' })
  page_slug!: string;

  @ApiProperty({
    ...declared(scrape.version),
    description: 'YYYYMMDD, a real calendar date',
    example: '20251016',
  })
  version!: string;

  @ApiProperty({
    ...declared(scrape.page_url),
    description: URL_DESCRIPTION,
    example: 'https://www.notion.so/pricing',
  })
  page_url!: string;

  @ApiProperty({ ...declared(scrape.screenshot_url), description: URL_DESCRIPTION })
  screenshot_url!: string | null;

  @ApiProperty({ ...declared(scrape.markdown_url), description: URL_DESCRIPTION })
  markdown_url!: string | null;

  @ApiProperty({ ...declared(scrape.html_url), description: URL_DESCRIPTION })
  html_url!: string | null;

  @ApiProperty({ ...declared(scrape.ocr_url), description: URL_DESCRIPTION })
  ocr_url!: string | null;

  @ApiProperty({
    ...declared(scrape.scraper),
    description: 'One of the configured scrapers (default scraper_1 to scraper_4)',
    example: 'scraper_1',
  })
  scraper!: string;

  @ApiProperty(declared(scrape.valid))
  valid!: boolean | null;

  @ApiProperty(declared(scrape.score))
  score!: number | null;

  @ApiProperty(declared(scrape.banner_free))
  banner_free!: boolean | null;
}

@ApiSchema({ name: 'PricingMetricInput' })
export class PricingMetricInputDto implements PricingMetricInput {
  @ApiProperty({ ...declared(charge.pricing_metric.fields.display_name), example: 'per user' })
  display_name!: string;

  @ApiProperty({ ...declared(charge.pricing_metric.fields.modality), example: 'user_based' })
  modality!: string;
}

@ApiSchema({ name: 'ChargeInput' })
export class ChargeInputDto implements ChargeInput {
  @ApiProperty({ ...declared(charge.billing), example: 'monthly_recurring_billed_monthly' })
  billing!: string;

  @ApiProperty({ ...declared(charge.currency), example: 'USD' })
  currency!: string;

  @ApiProperty({ ...declared(charge.price), example: 10 })
  price!: number | null;

  @ApiProperty({ ...declared(charge.charge_type), example: 'metered' })
  charge_type!: string;

  @ApiProperty({ type: () => PricingMetricInputDto, ...declared(charge.pricing_metric) })
  pricing_metric!: PricingMetricInputDto | null;

  @ApiProperty({ ...declared(charge.usage_type), example: 'licensed' })
  usage_type?: string | null;

  @ApiProperty({ ...declared(charge.display_name), example: 'Plus monthly' })
  display_name!: string;

  @ApiProperty({ ...declared(charge.price_display), example: '$10/user/month' })
  price_display?: string | null;

  @ApiProperty({ ...declared(charge.included_quantity), description: FREE_FORM })
  included_quantity?: unknown;

  @ApiProperty({ ...declared(charge.overage_info), description: FREE_FORM })
  overage_info?: unknown;
}

@ApiSchema({ name: 'DiscountInput' })
export class DiscountInputDto implements DiscountInput {
  @ApiProperty({ ...declared(discount.discount_category), example: 'annual_discount' })
  discount_category!: string;

  @ApiProperty({ ...declared(discount.amount_type), example: 'percent' })
  amount_type!: string;

  @ApiProperty({ ...declared(discount.amount), example: 20 })
  amount!: number;

  @ApiProperty({ ...declared(discount.description), example: 'Save 20% when billed yearly' })
  description!: string;

  @ApiProperty({ ...declared(discount.duration), example: '12 months' })
  duration!: string;
}

@ApiSchema({ name: 'PlanInput' })
export class PlanInputDto implements PlanInput {
  @ApiProperty({ ...declared(plan.display_name), example: 'Plus' })
  display_name!: string;

  @ApiProperty({ ...declared(plan.internal_name), example: 'plus' })
  internal_name!: string;

  @ApiProperty({ ...declared(plan.add_on), example: false })
  add_on!: boolean;

  @ApiProperty({ type: () => [ChargeInputDto], ...declared(plan.charges) })
  charges!: ChargeInputDto[];

  @ApiProperty({ type: () => [DiscountInputDto], ...declared(plan.discounts) })
  discounts!: DiscountInputDto[];
}

@ApiSchema({
  name: 'PricingRecord',
  description: 'The pricing extracted from one scrape; natural key company + page + version.',
})
export class PricingRecordDto implements PricingRecord {
  @ApiProperty({ enum: ['pricing'] })
  type!: 'pricing';

  @ApiProperty({ ...declared(pricing.company_slug), example: 'notion.so' })
  company_slug!: string;

  @ApiProperty({ ...declared(pricing.page_slug), example: '' })
  page_slug!: string;

  @ApiProperty({ ...declared(pricing.version), example: '20251016' })
  version!: string;

  @ApiProperty({
    ...declared(pricing.scraper),
    description:
      'Which scrape of that version it was extracted from; the first scraper by name when absent',
    example: 'scraper_1',
  })
  scraper?: string;

  @ApiProperty({ type: () => [PlanInputDto], ...declared(pricing.plans) })
  plans!: PlanInputDto[];
}

@ApiSchema({
  name: 'ExchangeRateRecord',
  description:
    'One exchange rate: 1 base is worth rate quote on date. Natural key date + base + quote; ' +
    'base and quote must differ.',
})
export class ExchangeRateRecordDto implements ExchangeRateRecord {
  @ApiProperty({ enum: ['exchange_rate'] })
  type!: 'exchange_rate';

  @ApiProperty({
    ...declared(exchange_rate.date),
    description: 'YYYYMMDD, a real calendar date: the day of the rate',
    example: '20251016',
  })
  date!: string;

  @ApiProperty({ ...declared(exchange_rate.base), example: 'EUR' })
  base!: string;

  @ApiProperty({
    ...declared(exchange_rate.quote),
    description: 'Another currency than base',
    example: 'USD',
  })
  quote!: string;

  @ApiProperty({
    ...declared(exchange_rate.rate),
    description: 'How many quote one base is worth: above 0, at most 1,000,000',
    example: 1.0842,
  })
  rate!: number;
}

@ApiSchema({ name: 'AcceptedBatch', description: 'The batch is durably queued.' })
export class AcceptedBatchDto {
  @ApiProperty({ format: 'uuid', example: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f' })
  batch_id!: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Records in the batch', example: 5 })
  accepted!: number;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description: 'Jobs queued: one per chunk of INGEST_CHUNK_SIZE records (500 by default)',
    example: 1,
  })
  jobs!: number;
}

@ApiSchema({ name: 'BatchCounts', description: 'How many records of the batch are in each state.' })
class BatchCountsDto {
  @ApiProperty({ type: 'integer', minimum: 0 })
  waiting!: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  active!: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  done!: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Records already recorded with the same content (a no-op)',
  })
  duplicate!: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  failed!: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description:
      'Records with no outcome whose job is no longer in the queue (removed by an operator)',
  })
  unknown!: number;
}

@ApiSchema({ name: 'BatchFailure' })
class BatchFailureDto {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Position of the record in the batch' })
  index!: number;

  @ApiProperty({ description: "The job of the record's chunk" })
  job_id!: string;

  @ApiProperty({ enum: [...RECORD_TYPES] })
  type!: string;

  @ApiProperty({ example: 'company never.io is not known yet; gave up after 4 attempts' })
  reason!: string;
}

@ApiSchema({ name: 'BatchStatus' })
export class BatchStatusDto {
  @ApiProperty({ format: 'uuid' })
  batch_id!: string;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Records in the batch' })
  total!: number;

  @ApiProperty({ description: 'True once no record is waiting or active' })
  complete!: boolean;

  @ApiProperty({ type: () => BatchCountsDto })
  counts!: BatchCountsDto;

  @ApiProperty({ type: () => [BatchFailureDto] })
  failures!: BatchFailureDto[];
}
