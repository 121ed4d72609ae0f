import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { CATEGORIES, MAX_JSON_DEPTH, RECORD_BOUNDS, type FieldBounds } from '#app/domain';
import { ANY_JSON_VALUE } from '../openapi/any-json-value.js';
import { PATTERNS } from '../openapi/patterns.js';

/**
 * Bodies of the ingestion routes, as documentation classes. The records are checked by
 * libs/contracts (record-validation.ts): these classes describe the same rules for readers,
 * with the same bounds (RECORD_BOUNDS in libs/domain).
 */

const { company, page, scrape, pricing } = RECORD_BOUNDS;
const plan = pricing.plans.items;
const charge = plan.charges.items;
const discount = plan.discounts.items;

/** A field's declared bounds as JSON Schema keywords. */
function bounded(bounds: FieldBounds): Record<string, number> {
  switch (bounds.kind) {
    case 'text':
      return bounds.minLength > 0
        ? { minLength: bounds.minLength, maxLength: bounds.maxLength }
        : { maxLength: bounds.maxLength };
    case 'url':
    case 'company-slug':
    case 'page-slug':
    case 'identifier':
    case 'scraper':
    case 'employees':
      return { maxLength: bounds.maxLength };
    case 'integer':
      return { minimum: bounds.minimum, maximum: bounds.maximum };
    case 'number':
      return bounds.minimum === null ? {} : { minimum: bounds.minimum };
    case 'list':
      return { maxItems: bounds.maxItems };
    case 'free-form':
    case 'object':
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
export class CompanyRecordDto {
  @ApiProperty({ enum: ['company'] })
  type!: 'company';

  @ApiProperty({ pattern: PATTERNS.companySlug, ...bounded(company.slug), example: 'notion.so' })
  slug!: string;

  @ApiProperty({ ...bounded(company.name), example: 'Notion' })
  name!: string;

  @ApiProperty({ enum: CATEGORIES, example: 'Productivity' })
  category!: string;

  @ApiProperty({
    pattern: PATTERNS.employees,
    ...bounded(company.employees),
    description: `N+ or N-M with M >= N, each at most ${company.employees.maxBound}`,
    example: '1000+',
  })
  employees!: string;

  @ApiProperty({
    ...bounded(company.url),
    description: URL_DESCRIPTION,
    example: 'https://notion.so',
  })
  url!: string;
}

@ApiSchema({ name: 'PageRecord', description: 'Registers a pricing page of a known company.' })
export class PageRecordDto {
  @ApiProperty({ enum: ['page'] })
  type!: 'page';

  @ApiProperty({
    pattern: PATTERNS.companySlug,
    ...bounded(page.company_slug),
    example: 'notion.so',
  })
  company_slug!: string;

  @ApiProperty({
    pattern: PATTERNS.pageSlug,
    ...bounded(page.page_slug),
    description: 'Empty for the primary pricing page',
    example: '',
  })
  page_slug!: string;

  @ApiProperty({
    ...bounded(page.pricing_page_url),
    description: URL_DESCRIPTION,
    example: 'https://www.notion.so/pricing',
  })
  pricing_page_url!: string;
}

@ApiSchema({
  name: 'ScrapeRecord',
  description: 'One scrape of a known page; natural key company + page + version + scraper.',
})
export class ScrapeRecordDto {
  @ApiProperty({ enum: ['scrape'] })
  type!: 'scrape';

  @ApiProperty({
    pattern: PATTERNS.companySlug,
    ...bounded(scrape.company_slug),
    example: 'notion.so',
  })
  company_slug!: string;

  @ApiProperty({ pattern: PATTERNS.pageSlug, ...bounded(scrape.page_slug), example: '' })
  page_slug!: string;

  @ApiProperty({
    pattern: PATTERNS.version,
    description: 'YYYYMMDD, a real calendar date',
    example: '20251016',
  })
  version!: string;

  @ApiProperty({
    ...bounded(scrape.page_url),
    description: URL_DESCRIPTION,
    example: 'https://www.notion.so/pricing',
  })
  page_url!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    ...bounded(scrape.screenshot_url),
    description: URL_DESCRIPTION,
  })
  screenshot_url!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    ...bounded(scrape.markdown_url),
    description: URL_DESCRIPTION,
  })
  markdown_url!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    ...bounded(scrape.html_url),
    description: URL_DESCRIPTION,
  })
  html_url!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    ...bounded(scrape.ocr_url),
    description: URL_DESCRIPTION,
  })
  ocr_url!: string | null;

  @ApiProperty({
    ...bounded(scrape.scraper),
    description: 'One of the configured scrapers (default scraper_1 to scraper_4)',
    example: 'scraper_1',
  })
  scraper!: string;

  @ApiProperty({ type: Boolean, nullable: true })
  valid!: boolean | null;

  @ApiProperty({ type: 'integer', nullable: true, ...bounded(scrape.score) })
  score!: number | null;

  @ApiProperty({ type: Boolean, nullable: true })
  banner_free!: boolean | null;
}

@ApiSchema({ name: 'PricingMetricInput' })
export class PricingMetricInputDto {
  @ApiProperty({ ...bounded(charge.pricing_metric.fields.display_name), example: 'per user' })
  display_name!: string;

  @ApiProperty({
    pattern: PATTERNS.identifier,
    ...bounded(charge.pricing_metric.fields.modality),
    example: 'user_based',
  })
  modality!: string;
}

@ApiSchema({ name: 'ChargeInput' })
export class ChargeInputDto {
  @ApiProperty({
    pattern: PATTERNS.identifier,
    ...bounded(charge.billing),
    example: 'monthly_recurring_billed_monthly',
  })
  billing!: string;

  @ApiProperty({ pattern: PATTERNS.currency, example: 'USD' })
  currency!: string;

  @ApiProperty({ type: Number, nullable: true, ...bounded(charge.price), example: 10 })
  price!: number | null;

  @ApiProperty({ pattern: PATTERNS.identifier, ...bounded(charge.charge_type), example: 'metered' })
  charge_type!: string;

  @ApiProperty({ type: () => PricingMetricInputDto, nullable: true })
  pricing_metric!: PricingMetricInputDto | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    pattern: PATTERNS.identifier,
    ...bounded(charge.usage_type),
    example: 'licensed',
  })
  usage_type?: string | null;

  @ApiProperty({ ...bounded(charge.display_name), example: 'Plus monthly' })
  display_name!: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    ...bounded(charge.price_display),
    example: '$10/user/month',
  })
  price_display?: string | null;

  @ApiPropertyOptional({ ...ANY_JSON_VALUE, description: FREE_FORM })
  included_quantity?: unknown;

  @ApiPropertyOptional({ ...ANY_JSON_VALUE, description: FREE_FORM })
  overage_info?: unknown;
}

@ApiSchema({ name: 'DiscountInput' })
export class DiscountInputDto {
  @ApiProperty({
    pattern: PATTERNS.identifier,
    ...bounded(discount.discount_category),
    example: 'annual_discount',
  })
  discount_category!: string;

  @ApiProperty({
    pattern: PATTERNS.identifier,
    ...bounded(discount.amount_type),
    example: 'percent',
  })
  amount_type!: string;

  @ApiProperty({ type: Number, ...bounded(discount.amount), example: 20 })
  amount!: number;

  @ApiProperty({ ...bounded(discount.description), example: 'Save 20% when billed yearly' })
  description!: string;

  @ApiProperty({ ...bounded(discount.duration), example: '12 months' })
  duration!: string;
}

@ApiSchema({ name: 'PlanInput' })
export class PlanInputDto {
  @ApiProperty({ ...bounded(plan.display_name), example: 'Plus' })
  display_name!: string;

  @ApiProperty({ ...bounded(plan.internal_name), example: 'plus' })
  internal_name!: string;

  @ApiProperty({ example: false })
  add_on!: boolean;

  @ApiProperty({ type: () => [ChargeInputDto], ...bounded(plan.charges) })
  charges!: ChargeInputDto[];

  @ApiProperty({ type: () => [DiscountInputDto], ...bounded(plan.discounts) })
  discounts!: DiscountInputDto[];
}

@ApiSchema({
  name: 'PricingRecord',
  description: 'The pricing extracted from one scrape; natural key company + page + version.',
})
export class PricingRecordDto {
  @ApiProperty({ enum: ['pricing'] })
  type!: 'pricing';

  @ApiProperty({
    pattern: PATTERNS.companySlug,
    ...bounded(pricing.company_slug),
    example: 'notion.so',
  })
  company_slug!: string;

  @ApiProperty({ pattern: PATTERNS.pageSlug, ...bounded(pricing.page_slug), example: '' })
  page_slug!: string;

  @ApiProperty({ pattern: PATTERNS.version, example: '20251016' })
  version!: string;

  @ApiPropertyOptional({
    ...bounded(pricing.scraper),
    description:
      'Which scrape of that version it was extracted from; the first scraper by name when absent',
    example: 'scraper_1',
  })
  scraper?: string;

  @ApiProperty({ type: () => [PlanInputDto], ...bounded(pricing.plans) })
  plans!: PlanInputDto[];
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
    description: 'Distinct jobs queued: identical records within a batch are one job',
    example: 5,
  })
  jobs!: number;
}

@ApiSchema({ name: 'BatchCounts', description: 'How many records of the batch are in each state.' })
export class BatchCountsDto {
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
    description: 'Records whose job is no longer in the queue (past its retention)',
  })
  unknown!: number;
}

@ApiSchema({ name: 'BatchFailure' })
export class BatchFailureDto {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Position of the record in the batch' })
  index!: number;

  @ApiProperty()
  job_id!: string;

  @ApiProperty({ enum: ['company', 'page', 'scrape', 'pricing'] })
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
