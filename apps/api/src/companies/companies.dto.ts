import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { CATEGORIES } from '#app/domain';
import { PATTERNS } from '../openapi/patterns.js';
import { PageReferenceDto } from '../pages/pages.dto.js';

/** Response bodies of the companies and categories routes (docs/API.md, "Resources"). */

@ApiSchema({ name: 'Company', description: 'A company as the list returns it.' })
export class CompanyDto {
  @ApiProperty({ type: 'integer', example: 42 })
  id!: number;

  @ApiProperty({ description: 'Display name', example: 'Notion' })
  name!: string;

  @ApiProperty({
    description: 'Identifier used in paths; may contain a domain extension',
    pattern: PATTERNS.companySlug,
    example: 'notion.so',
  })
  slug!: string;

  @ApiProperty({ enum: CATEGORIES, example: 'Productivity' })
  category!: string;

  @ApiProperty({
    description: 'Size band: a lower bound with a plus sign, or a range with a hyphen',
    pattern: PATTERNS.employees,
    example: '1000+',
  })
  employees!: string;

  @ApiProperty({ description: 'Company site URL (http or https)', example: 'https://notion.so' })
  url!: string;

  @ApiProperty({ format: 'date-time', example: '2025-01-05T10:00:00.000Z' })
  created_at!: string;
}

@ApiSchema({
  name: 'CompanyDetail',
  description: 'One company with updated_at, and with its pages when asked for with include=pages.',
})
export class CompanyDetailDto extends CompanyDto {
  @ApiProperty({ format: 'date-time', example: '2025-03-01T10:00:00.000Z' })
  updated_at!: string;

  @ApiPropertyOptional({
    type: () => [PageReferenceDto],
    description: 'Present only with include=pages: every pricing page of the company',
  })
  pages?: PageReferenceDto[];
}

@ApiSchema({ name: 'Pagination' })
export class PaginationDto {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Items matching', example: 57 })
  total!: number;

  @ApiProperty({ type: 'integer', minimum: 1, example: 1 })
  page!: number;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 100, example: 20 })
  limit!: number;

  @ApiProperty({ description: 'Whether a later page has more items', example: true })
  has_more!: boolean;
}

@ApiSchema({ name: 'CompanyList' })
export class CompanyListDto {
  @ApiProperty({ type: () => [CompanyDto] })
  data!: CompanyDto[];

  @ApiProperty({ type: () => PaginationDto })
  pagination!: PaginationDto;
}

@ApiSchema({ name: 'CategoryCount' })
class CategoryCountDto {
  @ApiProperty({ enum: CATEGORIES, example: 'Productivity' })
  category!: string;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Companies in it', example: 12 })
  companies!: number;
}

@ApiSchema({
  name: 'Categories',
  description: 'Each of the eight categories, in a fixed order, with its number of companies.',
})
export class CategoriesDto {
  @ApiProperty({ type: () => [CategoryCountDto] })
  categories!: CategoryCountDto[];

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Companies in all', example: 40 })
  total_companies!: number;
}
