import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { PATTERNS } from '../openapi/patterns.js';

const FIGURE = {
  type: Number,
  nullable: true,
  description: 'Null when the group has fewer than 3 pages; rounded to 4 decimals',
} as const;

@ApiSchema({
  name: 'BenchmarkGroup',
  description: 'The entry prices of the sample in one currency.',
})
class BenchmarkGroupDto {
  @ApiProperty({ pattern: PATTERNS.currency, example: 'USD' })
  currency!: string;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Pages in the group', example: 12 })
  sample_size!: number;

  @ApiProperty({ ...FIGURE, example: 8 })
  min!: number | null;

  @ApiProperty({ ...FIGURE, example: 12.5 })
  p25!: number | null;

  @ApiProperty({ ...FIGURE, example: 15 })
  median!: number | null;

  @ApiProperty({ ...FIGURE, example: 24 })
  p75!: number | null;

  @ApiProperty({ ...FIGURE, example: 49 })
  max!: number | null;
}

@ApiSchema({ name: 'BenchmarkPage', description: "One of the company's pages, ranked." })
export class BenchmarkPageDto {
  @ApiProperty({ description: 'Composite page slug', example: 'acmechat' })
  slug!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    pattern: PATTERNS.version,
    description: 'The extraction in force at as_of; null when there is none',
    example: '20260307',
  })
  version!: string | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: "The page's entry price; null when it has none. Rounded to 4 decimals",
    example: 12,
  })
  entry_price!: number | null;

  @ApiProperty({
    type: String,
    nullable: true,
    pattern: PATTERNS.currency,
    description: 'The currency of entry_price (the one asked for, when given)',
    example: 'USD',
  })
  currency!: string | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      '100 × (below + 0.5 × equal) / sample_size over the group of that currency, to 1 decimal; null when the group has fewer than 3 pages or there is no entry price',
    example: 41.7,
  })
  percentile!: number | null;
}

@ApiSchema({ name: 'BenchmarkCompany' })
class BenchmarkCompanyDto {
  @ApiProperty({ pattern: PATTERNS.companySlug, example: 'acmechat.io' })
  slug!: string;

  @ApiProperty({ type: () => [BenchmarkPageDto] })
  pages!: BenchmarkPageDto[];
}

@ApiSchema({
  name: 'Benchmark',
  description: "Entry-price quartiles of a sample of pages, and a company's percentile rank.",
})
export class BenchmarkDto {
  @ApiProperty({ pattern: PATTERNS.version, example: '20261116' })
  as_of!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    pattern: PATTERNS.currency,
    description: 'The currency asked for; null when none was (one group per currency)',
    example: null,
  })
  currency!: string | null;

  @ApiProperty({ type: () => [BenchmarkGroupDto], description: 'Ordered by currency code' })
  groups!: BenchmarkGroupDto[];

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    required: false,
    description: 'Only with currency: pages left out of the sample for want of a rate',
    example: 0,
  })
  unconverted?: number;

  @ApiProperty({
    type: () => BenchmarkCompanyDto,
    required: false,
    description: 'Only with company',
  })
  company?: BenchmarkCompanyDto;
}
