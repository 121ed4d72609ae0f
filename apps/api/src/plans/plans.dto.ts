import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { CATEGORIES } from '#app/domain';
import { PaginationDto } from '../companies/companies.dto.js';
import { PATTERNS } from '../openapi/patterns.js';
import { PlanDto } from '../pricing/pricing.dto.js';

/** Response bodies of the plan search (docs/API.md, "GET /v1/api/plans"). */

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

  @ApiProperty({
    type: () => PlanDto,
    description:
      'The plan whole, every charge with its monthly_equivalent (and converted, given currency)',
  })
  plan!: PlanDto;
}

@ApiSchema({ name: 'PlanSearch' })
export class PlanSearchDto {
  @ApiProperty({ type: () => [PlanSearchItemDto] })
  data!: PlanSearchItemDto[];

  @ApiProperty({ type: () => PaginationDto })
  pagination!: PaginationDto;
}
