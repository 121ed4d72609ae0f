import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { BILLING_VALUES, PRICING_CHANGE_TYPES, SERIES_STEPS } from '#app/domain';
import { ANY_JSON_VALUE } from '../openapi/any-json-value.js';
import { PATTERNS } from '../openapi/patterns.js';

/**
 * The pricing structure (docs/API.md, "PricingDocument") as libs/domain/src/pricing-document.ts builds it: every
 * field present (null rather than missing). Every id is a UUID that stays the same when the read
 * models are rebuilt.
 */

/** `currency` of an answer given `currency=`. */
const CONVERTED_INTO = {
  pattern: PATTERNS.currency,
  required: false,
  description: 'Only when currency is given: the currency charges were converted into',
  example: 'EUR',
} as const;

/** `unconverted` of an answer given `currency=`: what it counts. */
const UNCONVERTED = (counts: string) =>
  ({
    type: 'integer',
    minimum: 0,
    required: false,
    description: `Only when currency is given: ${counts} (converted null)`,
    example: 0,
  }) as const;

const OPEN_VOCABULARY =
  'An open vocabulary: any lower-case identifier, stored as the pipeline sent it.';

@ApiSchema({ name: 'PricingMetric', description: 'What a metered charge counts.' })
class PricingMetricDto {
  @ApiProperty({ format: 'uuid', example: '5d2c4c1e-8f0b-5a7e-9a51-0c3e2b7d9f10' })
  id!: string;

  @ApiProperty({ example: 'per user' })
  display_name!: string;

  @ApiProperty({
    pattern: PATTERNS.identifier,
    description: `Values seen: user_based, usage_based. ${OPEN_VOCABULARY}`,
    example: 'user_based',
  })
  modality!: string;
}

@ApiSchema({ name: 'Charge', description: 'One price of a plan.' })
class ChargeDto {
  @ApiProperty({ format: 'uuid', example: '0b8f7c52-3d1e-5f44-8a2b-6c9d1e0f3a27' })
  id!: string;

  @ApiProperty({
    pattern: PATTERNS.identifier,
    description:
      `Billing values named by the interface: ${BILLING_VALUES.join(', ')} ` +
      `(pricing_not_disclosed: contact sales or custom pricing). ${OPEN_VOCABULARY}`,
    example: 'monthly_recurring_billed_monthly',
  })
  billing!: string;

  @ApiProperty({
    pattern: PATTERNS.currency,
    description: 'ISO 4217 currency code',
    example: 'USD',
  })
  currency!: string;

  @ApiProperty({
    type: Number,
    nullable: true,
    minimum: 0,
    description: 'Null for a free tier or an undisclosed price',
    example: 10,
  })
  price!: number | null;

  @ApiProperty({
    pattern: PATTERNS.identifier,
    description: `Values seen: metered, flat. ${OPEN_VOCABULARY}`,
    example: 'metered',
  })
  charge_type!: string;

  @ApiProperty({
    type: () => PricingMetricDto,
    nullable: true,
    description: 'What the charge counts; null for a flat charge',
  })
  pricing_metric!: PricingMetricDto | null;

  @ApiProperty({
    type: String,
    nullable: true,
    pattern: PATTERNS.identifier,
    description: `Values seen: licensed, pay_as_you_go, subscription; null when not given. ${OPEN_VOCABULARY}`,
    example: 'licensed',
  })
  usage_type!: string | null;

  @ApiProperty({ example: 'Plus monthly' })
  display_name!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Human-readable price; null when not given',
    example: '$10/user/month',
  })
  price_display!: string | null;

  @ApiProperty({
    ...ANY_JSON_VALUE,
    description:
      'Quantity included in the price, as the pipeline sent it (any JSON value); null when not given',
    example: null,
  })
  included_quantity!: unknown;

  @ApiProperty({
    ...ANY_JSON_VALUE,
    description:
      'How usage beyond the included quantity is charged, as the pipeline sent it (any JSON value); null when not given',
    example: null,
  })
  overage_info!: unknown;

  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      'What the charge costs per month, in its own currency: price for monthly billings, price / 12 for annual_recurring_billed_yearly, 0 for freemium; null for one_time, pricing_not_disclosed, any other billing and a missing price. Rounded to 4 decimals',
    example: 10,
  })
  monthly_equivalent!: number | null;

  @ApiProperty({
    type: () => ConvertedFigureDto,
    nullable: true,
    required: false,
    description:
      'Only when currency is given: the monthly equivalent in that currency, or null when the charge has no monthly equivalent or no exchange rate applies',
  })
  converted?: ConvertedFigureDto | null;
}

@ApiSchema({
  name: 'ConvertedFigure',
  description: "A charge's monthly equivalent converted into the currency asked for.",
})
class ConvertedFigureDto {
  @ApiProperty({ pattern: PATTERNS.currency, example: 'EUR' })
  currency!: string;

  @ApiProperty({ description: 'Rounded to 4 decimals, computed unrounded', example: 9.2234 })
  monthly_equivalent!: number;

  @ApiProperty({
    description:
      "The multiplier applied: the exchange record's rate, or 1 / rate when only the inverse pair has one; 1 when the charge is already in the currency",
    example: 0.922339,
  })
  rate!: number;

  @ApiProperty({
    type: String,
    nullable: true,
    pattern: PATTERNS.version,
    description:
      "The date of the exchange record used (the latest on or before the charge's version); null when nothing was converted",
    example: '20251013',
  })
  rate_date!: string | null;
}

@ApiSchema({ name: 'Discount' })
class DiscountDto {
  @ApiProperty({ format: 'uuid', example: '9e1d7a33-2b6c-5d8e-a4f0-71c2b3d4e5f6' })
  id!: string;

  @ApiProperty({
    pattern: PATTERNS.identifier,
    description:
      'Value seen: annual_discount; categories named: annual, volume, education, nonprofit, ' +
      `startup, promotional. ${OPEN_VOCABULARY}`,
    example: 'annual_discount',
  })
  discount_category!: string;

  @ApiProperty({
    pattern: PATTERNS.identifier,
    description: `Value seen: percent. ${OPEN_VOCABULARY}`,
    example: 'percent',
  })
  amount_type!: string;

  @ApiProperty({ type: Number, example: 20 })
  amount!: number;

  @ApiProperty({ example: 'Save 20% when billed yearly' })
  description!: string;

  @ApiProperty({ description: 'Free text, such as a number of months', example: '12 months' })
  duration!: string;
}

@ApiSchema({ name: 'Plan' })
export class PlanDto {
  @ApiProperty({ format: 'uuid', example: '3c4d5e6f-7a8b-5c9d-8e0f-1a2b3c4d5e6f' })
  id!: string;

  @ApiProperty({ example: 'Plus' })
  display_name!: string;

  @ApiProperty({ example: 'plus' })
  internal_name!: string;

  @ApiProperty({ description: 'Whether the plan is an add-on to another plan', example: false })
  add_on!: boolean;

  @ApiProperty({ type: () => [ChargeDto] })
  charges!: ChargeDto[];

  @ApiProperty({ type: () => [DiscountDto], description: 'May be empty' })
  discounts!: DiscountDto[];
}

@ApiSchema({ name: 'ScrapeReference', description: 'The scrape the pricing was extracted from.' })
class ScrapeReferenceDto {
  @ApiProperty({ format: 'uuid', example: '7f6e5d4c-3b2a-5190-8f7e-6d5c4b3a2910' })
  id!: string;

  @ApiProperty({ pattern: PATTERNS.version, example: '20251016' })
  version!: string;

  @ApiProperty({ example: 'https://www.notion.so/pricing' })
  page_url!: string;

  @ApiProperty({ format: 'date-time', example: '2025-10-16T06:00:00.000Z' })
  created_at!: string;
}

@ApiSchema({
  name: 'PricingDocument',
  description: 'The pricing structure of one pricing page at one version.',
})
export class PricingDocumentDto {
  @ApiProperty({
    description: 'Full slug: <company> or <company>.<page>',
    example: 'notion',
  })
  slug!: string;

  @ApiProperty({ pattern: PATTERNS.companySlug, example: 'notion.so' })
  company_slug!: string;

  @ApiProperty({
    pattern: PATTERNS.pageSlug,
    description: 'Empty string for the primary pricing page',
    example: '',
  })
  page_subslug!: string;

  @ApiProperty({ format: 'uuid', example: '1a2b3c4d-5e6f-5a7b-8c9d-0e1f2a3b4c5d' })
  page_id!: string;

  @ApiProperty({ pattern: PATTERNS.version, description: 'Scrape date', example: '20251016' })
  version!: string;

  @ApiProperty({ type: () => ScrapeReferenceDto })
  scrape!: ScrapeReferenceDto;

  @ApiProperty({ type: () => [PlanDto] })
  plans!: PlanDto[];

  @ApiProperty(CONVERTED_INTO)
  currency?: string;

  @ApiProperty(UNCONVERTED('how many charges have a monthly equivalent but no exchange rate'))
  unconverted?: number;
}

/** The pricing page an answer is about; its fields lead the answers that carry them. */
export class PageRefDto {
  @ApiProperty({
    description: 'Full slug of the page: <company> or <company>.<page>',
    example: 'notion',
  })
  slug!: string;

  @ApiProperty({ pattern: PATTERNS.companySlug, example: 'notion.so' })
  company_slug!: string;

  @ApiProperty({
    pattern: PATTERNS.pageSlug,
    description: 'Empty string for the primary pricing page',
    example: '',
  })
  page_subslug!: string;
}

@ApiSchema({
  name: 'PricingVersions',
  description: 'The versions of one pricing page that have an extraction, oldest first.',
})
export class PricingVersionsDto extends PageRefDto {
  @ApiProperty({
    type: [String],
    items: { type: 'string', pattern: PATTERNS.version },
    description: 'Every version with a pricing extraction, oldest first',
    example: ['20250901', '20251016'],
  })
  versions!: string[];

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Length of versions', example: 2 })
  count!: number;

  @ApiProperty({
    type: String,
    nullable: true,
    pattern: PATTERNS.version,
    description: 'The last of versions; null when the page has no extraction yet',
    example: '20251016',
  })
  latest_version!: string | null;
}

@ApiSchema({ name: 'ChargeKey', description: 'What matches a charge between versions.' })
class ChargeKeyDto {
  @ApiProperty({ pattern: PATTERNS.identifier, example: 'monthly_recurring_billed_monthly' })
  billing!: string;

  @ApiProperty({ example: 'Plus monthly' })
  display_name!: string;
}

@ApiSchema({
  name: 'PricingChange',
  description:
    'One change between two versions. A whole plan, charge or discount added or removed has ' +
    'field null and the item (without ids) as new_value or old_value.',
})
export class PricingChangeDto {
  @ApiProperty({
    enum: PRICING_CHANGE_TYPES,
    description:
      'price_increased / price_decreased: a charge price up or down in the same currency; ' +
      'a price to or from null, a change of currency and any other charge field are ' +
      "charge_changed; a plan's own display_name or add_on is charge_changed with charge null",
    example: 'price_increased',
  })
  event_type!: string;

  @ApiProperty({ description: 'internal_name of the plan', example: 'plus' })
  plan!: string;

  @ApiProperty({
    type: () => ChargeKeyDto,
    nullable: true,
    description: 'The charge, for a change of a charge; else null',
  })
  charge!: ChargeKeyDto | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'discount_category, for a change of a discount; else null',
    example: null,
  })
  discount!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The field that changed; null when a whole item was added or removed',
    example: 'price',
  })
  field!: string | null;

  @ApiProperty({ ...ANY_JSON_VALUE, description: 'Null for an addition', example: 10 })
  old_value!: unknown;

  @ApiProperty({ ...ANY_JSON_VALUE, description: 'Null for a removal', example: 12 })
  new_value!: unknown;
}

@ApiSchema({
  name: 'PricingDiff',
  description:
    'The changes from one version of a pricing page to another. Plans match by internal_name, ' +
    'charges within a plan by billing and display_name, discounts within a plan by ' +
    'discount_category (a repeated key: the n-th matches the n-th). Ordered: plans as in the ' +
    'to version, then removed plans; within a plan its own fields, charges, then discounts.',
})
export class PricingDiffDto extends PageRefDto {
  @ApiProperty({ pattern: PATTERNS.version, example: '20250901' })
  from!: string;

  @ApiProperty({
    pattern: PATTERNS.version,
    description: 'The version asked for, or the latest one',
    example: '20251016',
  })
  to!: string;

  @ApiProperty({ type: () => [PricingChangeDto] })
  changes!: PricingChangeDto[];

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Length of changes', example: 1 })
  count!: number;
}

@ApiSchema({ name: 'SeriesCharge', description: 'A charge as a series point gives it.' })
class SeriesChargeDto {
  @ApiProperty({ example: 'Plus monthly' })
  display_name!: string;

  @ApiProperty({ pattern: PATTERNS.identifier, example: 'monthly_recurring_billed_monthly' })
  billing!: string;

  @ApiProperty({ pattern: PATTERNS.currency, example: 'USD' })
  currency!: string;

  @ApiProperty({ type: Number, nullable: true, example: 10 })
  price!: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'As on a Charge of the pricing document',
    example: 10,
  })
  monthly_equivalent!: number | null;

  @ApiProperty({
    type: () => ConvertedFigureDto,
    nullable: true,
    required: false,
    description: 'Only when currency is given, as on a Charge of the pricing document',
  })
  converted?: ConvertedFigureDto | null;
}

@ApiSchema({ name: 'SeriesPlan' })
class SeriesPlanDto {
  @ApiProperty({ example: 'plus' })
  internal_name!: string;

  @ApiProperty({ example: 'Plus' })
  display_name!: string;

  @ApiProperty({ example: false })
  add_on!: boolean;

  @ApiProperty({ type: () => [SeriesChargeDto] })
  charges!: SeriesChargeDto[];
}

@ApiSchema({ name: 'SeriesPoint' })
class SeriesPointDto {
  @ApiProperty({
    pattern: PATTERNS.version,
    description: 'The first day of the step (a Monday for weeks)',
    example: '20250101',
  })
  date!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    pattern: PATTERNS.version,
    description: 'The latest extraction on or before date; null when there is none yet',
    example: '20241230',
  })
  version!: string | null;

  @ApiProperty({
    type: () => [SeriesPlanDto],
    description: "The extraction's plans in its order; empty when version is null",
  })
  plans!: SeriesPlanDto[];
}

@ApiSchema({
  name: 'PricingSeries',
  description: 'The pricing in force at the start of each step of a range.',
})
export class PricingSeriesDto {
  @ApiProperty({ description: 'The composite slug of the page', example: 'acmechat' })
  slug!: string;

  @ApiProperty({ enum: SERIES_STEPS, example: 'month' })
  step!: string;

  @ApiProperty({
    pattern: PATTERNS.version,
    description: 'The range asked for, defaults filled in (not the first point)',
    example: '20250104',
  })
  from!: string;

  @ApiProperty({
    pattern: PATTERNS.version,
    description: 'The range asked for, defaults filled in (not the last point)',
    example: '20250430',
  })
  to!: string;

  @ApiProperty(CONVERTED_INTO)
  currency?: string;

  @ApiProperty(
    UNCONVERTED(
      'how many charges have a monthly equivalent but no exchange rate, summed over the points',
    ),
  )
  unconverted?: number;

  @ApiProperty({ type: () => [SeriesPointDto], description: 'Oldest first, at most 520' })
  points!: SeriesPointDto[];
}
