import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { CATEGORIES } from '#app/domain';
import { PaginationDto } from '../companies/companies.dto.js';
import { PATTERNS } from '../openapi/patterns.js';
import { ChargeDto, PlanDto } from '../pricing/pricing.dto.js';

/** Response bodies of the plan search (docs/API.md, "GET /v1/api/plans"). */

@ApiSchema({
  name: 'ConvertedFigure',
  description: "A charge's monthly equivalent in the currency asked for, with the rate used.",
})
export class ConvertedFigureDto {
  @ApiProperty({ pattern: PATTERNS.currency, example: 'EUR' })
  currency!: string;

  @ApiProperty({
    type: Number,
    minimum: 0,
    description: 'monthly_equivalent times rate, rounded to 4 decimals',
    example: 9.2234,
  })
  monthly_equivalent!: number;

  @ApiProperty({
    type: Number,
    description: '1 for a charge already in the currency; the inverse of a quote-to-base rate',
    example: 0.9223,
  })
  rate!: number;

  @ApiProperty({
    type: String,
    nullable: true,
    pattern: PATTERNS.version,
    description: "The rate's date (the latest on or before the version); null when rate is 1",
    example: '20251015',
  })
  rate_date!: string | null;
}

@ApiSchema({ name: 'PricedCharge', description: 'A charge with its monthly equivalent.' })
export class PricedChargeDto extends ChargeDto {
  @ApiProperty({
    type: Number,
    nullable: true,
    minimum: 0,
    description:
      "What it costs per month in the charge's own currency, rounded to 4 decimals: the price " +
      'when billed monthly, a twelfth of a yearly price, 0 for freemium; null for one_time, ' +
      'pricing_not_disclosed, any other billing, or no price',
    example: 10,
  })
  monthly_equivalent!: number | null;

  @ApiPropertyOptional({
    type: () => ConvertedFigureDto,
    nullable: true,
    description:
      'Only when currency is given: the monthly equivalent converted, or null when there is no ' +
      'rate or no monthly equivalent',
  })
  converted?: ConvertedFigureDto | null;
}

@ApiSchema({ name: 'PricedPlan', description: 'A plan whose charges carry monthly equivalents.' })
export class PricedPlanDto extends PlanDto {
  @ApiProperty({ type: () => [PricedChargeDto] })
  declare charges: PricedChargeDto[];
}

@ApiSchema({ name: 'PlanSearchItem', description: 'One plan found, with its page and company.' })
export class PlanSearchItemDto {
  @ApiProperty({ pattern: PATTERNS.companySlug, example: 'acmechat.io' })
  company_slug!: string;

  @ApiProperty({ example: 'AcmeChat' })
  company_name!: string;

  @ApiProperty({ enum: CATEGORIES, example: 'Communication' })
  category!: string;

  @ApiProperty({
    description: 'Composite slug of the page: <company> or <company>.<page>',
    example: 'acmechat',
  })
  slug!: string;

  @ApiProperty({
    pattern: PATTERNS.version,
    description: "The page's latest extraction, which the plan is from",
    example: '20251016',
  })
  version!: string;

  @ApiProperty({ type: () => PricedPlanDto, description: 'The plan whole, every charge in it' })
  plan!: PricedPlanDto;
}

@ApiSchema({ name: 'PlanSearch' })
export class PlanSearchDto {
  @ApiProperty({ type: () => [PlanSearchItemDto] })
  data!: PlanSearchItemDto[];

  @ApiProperty({ type: () => PaginationDto })
  pagination!: PaginationDto;
}
