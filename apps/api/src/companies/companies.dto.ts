import { ApiSchema } from '@nestjs/swagger';
import { CATEGORIES } from '#app/domain';
import { PATTERNS } from '../openapi/patterns.js';
import { PageReferenceDto, PaginationDto } from '../openapi/shared.dto.js';
import { Properties, WithProperties } from '../openapi/properties.js';

/** Response bodies of the companies and categories routes (docs/API.md, "Resources"). */

@ApiSchema({ name: 'Company', description: 'A company as the list returns it.' })
export class CompanyDto extends Properties({
  id: { type: 'integer', example: 42 },
  name: { description: 'Display name', example: 'Notion' },
  slug: {
    description: 'Identifier used in paths; may contain a domain extension',
    pattern: PATTERNS.companySlug,
    example: 'notion.so',
  },
  category: { enum: CATEGORIES, example: 'Productivity' },
  employees: {
    description: 'Size band: a lower bound with a plus sign, or a range with a hyphen',
    pattern: PATTERNS.employees,
    example: '1000+',
  },
  url: { description: 'Company site URL (http or https)', example: 'https://notion.so' },
  created_at: { format: 'date-time', example: '2025-01-05T10:00:00.000Z' },
}) {}

@ApiSchema({
  name: 'CompanyDetail',
  description: 'One company with updated_at, and with its pages when asked for with include=pages.',
})
export class CompanyDetailDto extends WithProperties(CompanyDto, {
  updated_at: { format: 'date-time', example: '2025-03-01T10:00:00.000Z' },
  'pages?': {
    type: () => [PageReferenceDto],
    description: 'Present only with include=pages: every pricing page of the company',
  },
}) {}

@ApiSchema({ name: 'CompanyList' })
export class CompanyListDto extends Properties({
  data: { type: () => [CompanyDto] },
  pagination: { type: () => PaginationDto },
}) {}

@ApiSchema({ name: 'CategoryCount' })
class CategoryCountDto extends Properties({
  category: { enum: CATEGORIES, example: 'Productivity' },
  companies: { type: 'integer', minimum: 0, description: 'Companies in it', example: 12 },
}) {}

@ApiSchema({
  name: 'Categories',
  description: 'Each of the eight categories, in a fixed order, with its number of companies.',
})
export class CategoriesDto extends Properties({
  categories: { type: () => [CategoryCountDto] },
  total_companies: { type: 'integer', minimum: 0, description: 'Companies in all', example: 40 },
}) {}
