import { ApiSchema, type ApiPropertyOptions } from '@nestjs/swagger';
import { BILLING_VALUES, PRICING_CHANGE_TYPES, SIGNIFICANCES } from '#app/domain';
import { PAGE_SIZE } from '../http/query-parameters.js';
import { ANY_JSON_VALUE } from './any-json-value.js';
import { PATTERNS } from './patterns.js';
import { Properties, WithProperties, nullableVersion, nullableNumber } from './properties.js';

/**
 * The schemas more than one feature answers with: the parts of the pricing document (docs/API.md,
 * "PricingDocument") that plans and the change feed carry too, a series point's plan (series,
 * compare), the page reference (pages, companies), pagination (companies, plans) and a key's
 * usage (usage, admin). A feature's own schemas stay beside its controller.
 */

const OPEN_VOCABULARY =
  'An open vocabulary: any lower-case identifier, stored as the pipeline sent it.';

/** A value of an open vocabulary, with the values seen so far. */
const vocabulary = (valuesSeen: string, example: string) =>
  ({
    pattern: PATTERNS.identifier,
    description: `${valuesSeen} ${OPEN_VOCABULARY}`,
    example,
  }) as const;

@ApiSchema({ name: 'PricingMetric', description: 'What a metered charge counts.' })
class PricingMetricDto extends Properties({
  id: { format: 'uuid', example: '5d2c4c1e-8f0b-5a7e-9a51-0c3e2b7d9f10' },
  display_name: { example: 'per user' },
  modality: vocabulary('Values seen: user_based, usage_based.', 'user_based'),
}) {}

/** The properties of a charge; a series plan gives some of them (SeriesPlan, below). */
const CHARGE = {
  id: { format: 'uuid', example: '0b8f7c52-3d1e-5f44-8a2b-6c9d1e0f3a27' },
  billing: vocabulary(
    `Billing values named by the interface: ${BILLING_VALUES.join(', ')} ` +
      '(pricing_not_disclosed: contact sales or custom pricing).',
    'monthly_recurring_billed_monthly',
  ),
  currency: {
    pattern: PATTERNS.currency,
    description: 'ISO 4217 currency code',
    example: 'USD',
  },
  price: {
    type: Number,
    nullable: true,
    minimum: 0,
    description: 'Null for a free tier or an undisclosed price',
    example: 10,
  },
  charge_type: vocabulary('Values seen: metered, flat.', 'metered'),
  pricing_metric: {
    type: () => PricingMetricDto,
    nullable: true,
    description: 'What the charge counts; null for a flat charge',
  },
  usage_type: {
    ...vocabulary(
      'Values seen: licensed, pay_as_you_go, subscription; null when not given.',
      'licensed',
    ),
    nullable: true,
  },
  display_name: { example: 'Plus monthly' },
  price_display: {
    nullable: true,
    description: 'Human-readable price; null when not given',
    example: '$10/user/month',
  },
  included_quantity: {
    ...ANY_JSON_VALUE,
    description:
      'Quantity included in the price, as the pipeline sent it (any JSON value); null when not given',
    example: null,
  },
  overage_info: {
    ...ANY_JSON_VALUE,
    description:
      'How usage beyond the included quantity is charged, as the pipeline sent it (any JSON value); null when not given',
    example: null,
  },
  monthly_equivalent: nullableNumber(
    'What the charge costs per month, in its own currency: price for monthly billings, price / 12 for annual_recurring_billed_yearly, 0 for freemium; null for one_time, pricing_not_disclosed, any other billing and a missing price. Rounded to 4 decimals',
    10,
  ),
  'converted?': {
    type: () => ConvertedFigureDto,
    nullable: true,
    description:
      'Only when currency is given: the monthly equivalent in that currency, or null when the charge has no monthly equivalent or no exchange rate applies',
  },
} satisfies Record<string, ApiPropertyOptions>;

@ApiSchema({ name: 'Charge', description: 'One price of a plan.' })
class ChargeDto extends Properties(CHARGE) {}

@ApiSchema({
  name: 'ConvertedFigure',
  description: "A charge's monthly equivalent converted into the currency asked for.",
})
class ConvertedFigureDto extends Properties({
  currency: { pattern: PATTERNS.currency, example: 'EUR' },
  monthly_equivalent: {
    type: Number,
    description: 'Rounded to 4 decimals, computed unrounded',
    example: 9.2234,
  },
  rate: {
    type: Number,
    description:
      "The multiplier applied: the exchange record's rate, or 1 / rate when only the inverse pair has one; 1 when the charge is already in the currency",
    example: 0.922339,
  },
  rate_date: nullableVersion(
    "The date of the exchange record used (the latest on or before the charge's version); null when nothing was converted",
    '20251013',
  ),
}) {}

@ApiSchema({ name: 'Discount' })
class DiscountDto extends Properties({
  id: { format: 'uuid', example: '9e1d7a33-2b6c-5d8e-a4f0-71c2b3d4e5f6' },
  discount_category: vocabulary(
    'Value seen: annual_discount; categories named: annual, volume, education, nonprofit, ' +
      'startup, promotional.',
    'annual_discount',
  ),
  amount_type: vocabulary('Value seen: percent.', 'percent'),
  amount: { type: Number, example: 20 },
  description: { example: 'Save 20% when billed yearly' },
  duration: { description: 'Free text, such as a number of months', example: '12 months' },
}) {}

@ApiSchema({ name: 'Plan' })
export class PlanDto extends Properties({
  id: { format: 'uuid', example: '3c4d5e6f-7a8b-5c9d-8e0f-1a2b3c4d5e6f' },
  display_name: { example: 'Plus' },
  internal_name: { example: 'plus' },
  add_on: {
    type: Boolean,
    description: 'Whether the plan is an add-on to another plan',
    example: false,
  },
  charges: { type: () => [ChargeDto] },
  discounts: { type: () => [DiscountDto], description: 'May be empty' },
}) {}

@ApiSchema({
  name: 'SeriesCharge',
  description: 'A charge as a series point, or a page compared, gives it.',
})
class SeriesChargeDto extends Properties({
  display_name: CHARGE.display_name,
  billing: CHARGE.billing,
  currency: CHARGE.currency,
  price: { type: Number, nullable: true, example: 10 },
  monthly_equivalent: CHARGE.monthly_equivalent,
  'converted?': CHARGE['converted?'],
}) {}

@ApiSchema({ name: 'SeriesPlan' })
export class SeriesPlanDto extends Properties({
  internal_name: { example: 'plus' },
  display_name: { example: 'Plus' },
  add_on: { type: Boolean, example: false },
  charges: { type: () => [SeriesChargeDto] },
}) {}

/** The pricing page an answer is about; its fields lead the answers that carry them. */
export class PageRefDto extends Properties({
  slug: {
    description: 'Full slug of the page: <company> or <company>.<page>',
    example: 'notion',
  },
  company_slug: { pattern: PATTERNS.companySlug, example: 'notion.so' },
  page_subslug: {
    pattern: PATTERNS.pageSlug,
    description: 'Empty string for the primary pricing page',
    example: '',
  },
}) {}

@ApiSchema({ name: 'ChargeKey', description: 'What matches a charge between versions.' })
class ChargeKeyDto extends Properties({
  billing: { pattern: PATTERNS.identifier, example: 'monthly_recurring_billed_monthly' },
  display_name: { example: 'Plus monthly' },
}) {}

@ApiSchema({
  name: 'PricingChange',
  description:
    'One change between two versions. A whole plan, charge or discount added or removed has ' +
    'field null and the item (without ids) as new_value or old_value.',
})
export class PricingChangeDto extends Properties({
  event_type: {
    enum: PRICING_CHANGE_TYPES,
    description:
      'price_increased / price_decreased: a charge price up or down in the same currency; ' +
      'a price to or from null, a change of currency and any other charge field are ' +
      "charge_changed; a plan's own display_name or add_on is charge_changed with charge null",
    example: 'price_increased',
  },
  plan: { description: 'internal_name of the plan', example: 'plus' },
  charge: {
    type: () => ChargeKeyDto,
    nullable: true,
    description: 'The charge, for a change of a charge; else null',
  },
  discount: {
    nullable: true,
    description: 'discount_category, for a change of a discount; else null',
    example: null,
  },
  field: {
    nullable: true,
    description: 'The field that changed; null when a whole item was added or removed',
    example: 'price',
  },
  old_value: { ...ANY_JSON_VALUE, description: 'Null for an addition', example: 10 },
  new_value: { ...ANY_JSON_VALUE, description: 'Null for a removal', example: 12 },
  'old_monthly_equivalent?': nullableNumber(
    'price_increased and price_decreased only: the old price as a monthly equivalent (as a ' +
      "charge's monthly_equivalent), in the charge's currency, rounded to 4 decimals",
    10,
  ),
  'new_monthly_equivalent?': nullableNumber(
    'price_increased and price_decreased only: the new price as a monthly equivalent',
    12,
  ),
  'change_percent?': nullableNumber(
    'price_increased and price_decreased only: 100 × (new − old) / old of the unrounded ' +
      'monthly equivalents, rounded to 2 decimals (halves away from zero); null when old is 0 ' +
      'or either is null',
    20,
  ),
  significance: {
    enum: SIGNIFICANCES,
    description:
      'major: a plan added or removed; a price change whose change_percent is null or at ' +
      'least 20 either way; a charge billed freemium or pricing_not_disclosed added or ' +
      'removed; a charge_changed of price (a price appearing, disappearing or changing ' +
      'currency). moderate: a price change from 5 to under 20 %; any other charge added or ' +
      'removed; a discount added or removed. minor: every other change',
    example: 'major',
  },
}) {}

@ApiSchema({
  name: 'PageReference',
  description: 'A pricing page reference.',
})
export class PageReferenceDto extends Properties({
  company_slug: {
    description: 'Company slug, including any domain extension',
    pattern: PATTERNS.companySlug,
    example: 'notion.so',
  },
  page_slug: {
    description: 'Page sub-slug; an empty string for the primary pricing page',
    pattern: PATTERNS.pageSlug,
    example: '',
  },
  company_name: { description: 'Display name of the company', example: 'Notion' },
  pricing_page_url: {
    description: 'Full URL of the pricing page',
    example: 'https://www.notion.so/pricing',
  },
}) {}

@ApiSchema({ name: 'Pagination' })
export class PaginationDto extends Properties({
  total: { type: 'integer', minimum: 0, description: 'Items matching', example: 57 },
  page: { type: 'integer', minimum: 1, example: 1 },
  limit: { type: 'integer', minimum: PAGE_SIZE.minimum, maximum: PAGE_SIZE.maximum, example: 20 },
  has_more: { type: Boolean, description: 'Whether a later page has more items', example: true },
}) {}

@ApiSchema({
  name: 'HourlyUsage',
  description:
    'The hourly window: it opens at the first counted request and ends an hour later. Only ' +
    '2xx answers stay counted.',
})
class HourlyUsageDto extends Properties({
  limit: { type: 'integer', example: 1000, description: 'Requests allowed per window' },
  used: { type: 'integer', example: 42, description: 'Counted in the open window' },
  remaining: { type: 'integer', example: 958 },
  window_started_at: {
    format: 'date-time',
    nullable: true,
    description: 'When the open window began; null when none is open',
    example: '2026-11-22T09:12:03.000Z',
  },
  reset_at: {
    format: 'date-time',
    nullable: true,
    description: 'When the open window ends; null when none is open (the next request opens one)',
    example: '2026-11-22T10:12:03.000Z',
  },
}) {}

@ApiSchema({
  name: 'CreditUsage',
  description: 'Monthly credits: one per successful metered request, reset 00:00 UTC on the 1st.',
})
class CreditUsageDto extends Properties({
  limit: { type: 'integer', example: 10000 },
  used: { type: 'integer', example: 120 },
  remaining: { type: 'integer', example: 9880 },
  reset_at: { format: 'date-time', example: '2026-12-01T00:00:00.000Z' },
}) {}

@ApiSchema({
  name: 'BurstLimit',
  description: 'Uncharged answers a second per key (a charged 2xx takes none).',
})
class BurstLimitDto extends Properties({
  limit_per_second: { type: 'integer', example: 20 },
}) {}

@ApiSchema({ name: 'Usage', description: "A key's plan and counters." })
export class UsageDto extends Properties({
  plan: { example: 'pro' },
  hourly: { type: () => HourlyUsageDto },
  credits: { type: () => CreditUsageDto },
  burst: { type: () => BurstLimitDto },
}) {}

@ApiSchema({
  name: 'KeyUsage',
  description: "A key's plan and counters, as the operator sees them.",
})
export class KeyUsageDto extends WithProperties(UsageDto, {
  id: { format: 'uuid', example: '2d9c0b5e-1f4a-4e63-9b8d-7a6c5e4f3d2b' },
  name: { example: 'pipeline' },
  status: { enum: ['active', 'revoked', 'expired'], example: 'active' },
}) {}
