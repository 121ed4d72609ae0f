import { ApiSchema } from '@nestjs/swagger';
import { CATEGORIES } from '#app/domain';
import { PaginationDto, PlanDto } from '../openapi/shared.dto.js';
import { PATTERNS } from '../openapi/patterns.js';
import { Properties, version } from '../openapi/properties.js';

/** Response bodies of the plan search (docs/API.md, "GET /v1/api/plans"). */

@ApiSchema({ name: 'PlanSearchItem', description: 'One plan found, with its page and company.' })
export class PlanSearchItemDto extends Properties({
  company_slug: { pattern: PATTERNS.companySlug, example: 'acmechat.io' },
  company_name: { example: 'AcmeChat' },
  category: { enum: CATEGORIES, example: 'Communication' },
  slug: {
    description: 'Composite slug of the page: <company> or <company>.<page>',
    example: 'acmechat',
  },
  version: version("The page's latest extraction, which the plan is from", '20251016'),
  plan: {
    type: () => PlanDto,
    description:
      'The plan whole, every charge with its monthly_equivalent (and converted, given currency)',
  },
}) {}

@ApiSchema({ name: 'PlanSearch' })
export class PlanSearchDto extends Properties({
  data: { type: () => [PlanSearchItemDto] },
  pagination: { type: () => PaginationDto },
}) {}
