import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { PATTERNS } from '../openapi/patterns.js';

@ApiSchema({
  name: 'PageReference',
  description: 'A pricing page reference.',
})
export class PageReferenceDto {
  @ApiProperty({
    description: 'Company slug, including any domain extension',
    pattern: PATTERNS.companySlug,
    example: 'notion.so',
  })
  company_slug!: string;

  @ApiProperty({
    description: 'Page sub-slug; an empty string for the primary pricing page',
    pattern: PATTERNS.pageSlug,
    example: '',
  })
  page_slug!: string;

  @ApiProperty({ description: 'Display name of the company', example: 'Notion' })
  company_name!: string;

  @ApiProperty({
    description: 'Full URL of the pricing page',
    example: 'https://www.notion.so/pricing',
  })
  pricing_page_url!: string;
}
