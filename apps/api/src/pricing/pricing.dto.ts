import { ApiSchema } from '@nestjs/swagger';
import { SERIES_STEPS } from '#app/domain';
import { PATTERNS } from '../openapi/patterns.js';
import { PageRefDto, PlanDto, PricingChangeDto, SeriesPlanDto } from '../openapi/shared.dto.js';
import { Properties, WithProperties, version, nullableVersion } from '../openapi/properties.js';

/**
 * The pricing structure (docs/API.md, "PricingDocument") as libs/domain/src/pricing-document.ts builds it: every
 * field present (null rather than missing). Every id is a UUID that stays the same when the read
 * models are rebuilt.
 */

/** `currency` of an answer given `currency=`. */
const CONVERTED_INTO = {
  pattern: PATTERNS.currency,
  description: 'Only when currency is given: the currency charges were converted into',
  example: 'EUR',
} as const;

/** `unconverted` of an answer given `currency=`: what it counts. */
const UNCONVERTED = (counts: string) =>
  ({
    type: 'integer',
    minimum: 0,
    description: `Only when currency is given: ${counts} (converted null)`,
    example: 0,
  }) as const;

@ApiSchema({ name: 'ScrapeReference', description: 'The scrape the pricing was extracted from.' })
class ScrapeReferenceDto extends Properties({
  id: { format: 'uuid', example: '7f6e5d4c-3b2a-5190-8f7e-6d5c4b3a2910' },
  version: { pattern: PATTERNS.version, example: '20251016' },
  page_url: { example: 'https://www.notion.so/pricing' },
  created_at: { format: 'date-time', example: '2025-10-16T06:00:00.000Z' },
}) {}

@ApiSchema({
  name: 'PricingDocument',
  description: 'The pricing structure of one pricing page at one version.',
})
export class PricingDocumentDto extends WithProperties(PageRefDto, {
  page_id: { format: 'uuid', example: '1a2b3c4d-5e6f-5a7b-8c9d-0e1f2a3b4c5d' },
  version: version('Scrape date', '20251016'),
  scrape: { type: () => ScrapeReferenceDto },
  plans: { type: () => [PlanDto] },
  'currency?': CONVERTED_INTO,
  'unconverted?': UNCONVERTED('how many charges have a monthly equivalent but no exchange rate'),
}) {}

@ApiSchema({
  name: 'PricingVersions',
  description: 'The versions of one pricing page that have an extraction, oldest first.',
})
export class PricingVersionsDto extends WithProperties(PageRefDto, {
  versions: {
    type: [String],
    items: { type: 'string', pattern: PATTERNS.version },
    description: 'Every version with a pricing extraction, oldest first',
    example: ['20250901', '20251016'],
  },
  count: { type: 'integer', minimum: 0, description: 'Length of versions', example: 2 },
  latest_version: nullableVersion(
    'The last of versions; null when the page has no extraction yet',
    '20251016',
  ),
}) {}

@ApiSchema({
  name: 'PricingDiff',
  description:
    'The changes from one version of a pricing page to another. Plans match by internal_name, ' +
    'charges within a plan by billing and display_name, discounts within a plan by ' +
    'discount_category (a repeated key: the n-th matches the n-th). Ordered: plans as in the ' +
    'to version, then removed plans; within a plan its own fields, charges, then discounts.',
})
export class PricingDiffDto extends WithProperties(PageRefDto, {
  from: { pattern: PATTERNS.version, example: '20250901' },
  to: version('The version asked for, or the latest one', '20251016'),
  changes: { type: () => [PricingChangeDto] },
  count: { type: 'integer', minimum: 0, description: 'Length of changes', example: 1 },
}) {}

@ApiSchema({ name: 'SeriesPoint' })
class SeriesPointDto extends Properties({
  date: version('The first day of the step (a Monday for weeks)', '20250101'),
  version: nullableVersion(
    'The latest extraction on or before date; null when there is none yet',
    '20241230',
  ),
  plans: {
    type: () => [SeriesPlanDto],
    description: "The extraction's plans in its order; empty when version is null",
  },
}) {}

@ApiSchema({
  name: 'PricingSeries',
  description: 'The pricing in force at the start of each step of a range.',
})
export class PricingSeriesDto extends Properties({
  slug: { description: 'The composite slug of the page', example: 'acmechat' },
  step: { enum: SERIES_STEPS, example: 'month' },
  from: version('The range asked for, defaults filled in (not the first point)', '20250104'),
  to: version('The range asked for, defaults filled in (not the last point)', '20250430'),
  'currency?': CONVERTED_INTO,
  'unconverted?': UNCONVERTED(
    'how many charges have a monthly equivalent but no exchange rate, summed over the points',
  ),
  points: { type: () => [SeriesPointDto], description: 'Oldest first, at most 520' },
}) {}
