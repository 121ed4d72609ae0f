import { ApiSchema } from '@nestjs/swagger';
import { MAX_PRICE_INDEX_POINTS, PRICE_INDEX_STEPS } from '#app/domain';
import { PATTERNS } from '../openapi/patterns.js';
import { Properties, nullableVersion, nullableNumber, version } from '../openapi/properties.js';

const FIGURE = {
  type: Number,
  nullable: true,
  description: 'Null when the group has fewer than 3 pages; rounded to 4 decimals',
} as const;

@ApiSchema({
  name: 'BenchmarkGroup',
  description: 'The entry prices of the sample in one currency.',
})
class BenchmarkGroupDto extends Properties({
  currency: { pattern: PATTERNS.currency, example: 'USD' },
  sample_size: { type: 'integer', minimum: 0, description: 'Pages in the group', example: 12 },
  min: { ...FIGURE, example: 8 },
  p25: { ...FIGURE, example: 12.5 },
  median: { ...FIGURE, example: 15 },
  p75: { ...FIGURE, example: 24 },
  max: { ...FIGURE, example: 49 },
}) {}

@ApiSchema({ name: 'BenchmarkPage', description: "One of the company's pages, ranked." })
export class BenchmarkPageDto extends Properties({
  slug: { description: 'Composite page slug', example: 'acmechat' },
  version: nullableVersion('The extraction in force at as_of; null when there is none', '20260307'),
  entry_price: nullableNumber(
    "The page's entry price; null when it has none. Rounded to 4 decimals",
    12,
  ),
  currency: {
    nullable: true,
    pattern: PATTERNS.currency,
    description: 'The currency of entry_price (the one asked for, when given)',
    example: 'USD',
  },
  percentile: nullableNumber(
    '100 × (below + 0.5 × equal) / sample_size over the group of that currency, to 1 decimal; null when the group has fewer than 3 pages or there is no entry price',
    41.7,
  ),
}) {}

@ApiSchema({ name: 'BenchmarkCompany' })
class BenchmarkCompanyDto extends Properties({
  slug: { pattern: PATTERNS.companySlug, example: 'acmechat.io' },
  pages: { type: () => [BenchmarkPageDto] },
}) {}

@ApiSchema({
  name: 'Benchmark',
  description: "Entry-price quartiles of a sample of pages, and a company's percentile rank.",
})
export class BenchmarkDto extends Properties({
  as_of: { pattern: PATTERNS.version, example: '20261116' },
  currency: {
    nullable: true,
    pattern: PATTERNS.currency,
    description: 'The currency asked for; null when none was (one group per currency)',
    example: null,
  },
  groups: { type: () => [BenchmarkGroupDto], description: 'Ordered by currency code' },
  'unconverted?': {
    type: 'integer',
    minimum: 0,
    description: 'Only with currency: pages left out of the sample for want of a rate',
    example: 0,
  },
  'company?': {
    type: () => BenchmarkCompanyDto,
    description: 'Only with company',
  },
}) {}

@ApiSchema({
  name: 'PriceIndexPoint',
  description: 'The sample at the start of one step, as GET /v1/api/benchmarks gives it that day.',
})
class PriceIndexPointDto extends Properties({
  date: version('The first day of the step', '20250101'),
  groups: {
    type: () => [BenchmarkGroupDto],
    description:
      'The groups of GET /v1/api/benchmarks with the same filters at as_of = date: ordered by currency code, exactly one with currency',
  },
}) {}

@ApiSchema({
  name: 'PriceIndex',
  description:
    'The entry-price quartiles of a sample of pages at the start of each step of a range.',
})
export class PriceIndexDto extends Properties({
  from: version('The range asked for (not the first point)', '20250104'),
  to: version('The range asked for, its default filled in (not the last point)', '20260307'),
  step: { enum: PRICE_INDEX_STEPS, example: 'month' },
  currency: {
    nullable: true,
    pattern: PATTERNS.currency,
    description: 'The currency asked for; null when none was (one group per currency)',
    example: null,
  },
  points: {
    type: () => [PriceIndexPointDto],
    description: `Oldest first, at most ${MAX_PRICE_INDEX_POINTS}`,
  },
}) {}
