import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { PATTERNS } from '../openapi/patterns.js';

/** Response bodies of the files routes (docs/API.md, "Resources"). */

@ApiSchema({
  name: 'ScrapeFile',
  description: 'One scrape of a pricing page; it never changes after creation.',
})
export class ScrapeFileDto {
  @ApiProperty({ description: 'Company slug', pattern: PATTERNS.companySlug, example: 'notion.so' })
  slug!: string;

  @ApiProperty({
    description: 'Scrape version, YYYYMMDD',
    pattern: PATTERNS.version,
    example: '20251016',
  })
  version!: string;

  @ApiProperty({
    description: 'URL of the original pricing page',
    example: 'https://www.notion.so/pricing',
  })
  page_url!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'URL of the screenshot image',
    example: 'https://cdn.example.com/notion.so/20251016/page.png',
  })
  screenshot_url!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'URL of the markdown version',
    example: 'https://cdn.example.com/notion.so/20251016/page.md',
  })
  markdown_url!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'URL of the HTML version',
    example: null,
  })
  html_url!: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'URL of the OCR JSON', example: null })
  ocr_url!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Which scraper produced it (one of the configured scrapers)',
    example: 'scraper_1',
  })
  scraper!: string | null;

  @ApiProperty({
    type: Boolean,
    nullable: true,
    description: 'Whether the scrape is valid',
    example: true,
  })
  valid!: boolean | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    minimum: 0,
    maximum: 10,
    description: 'Quality score, 0 to 10',
    example: 8,
  })
  score!: number | null;

  @ApiProperty({
    type: Boolean,
    nullable: true,
    description: 'Whether the page is free of banners',
    example: true,
  })
  banner_free!: boolean | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: '2025-10-16T06:00:00.000Z',
  })
  created_at!: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: '2025-10-16T06:00:00.000Z',
  })
  updated_at!: string | null;
}

@ApiSchema({ name: 'Period', description: 'A closed range of days, both ends included.' })
class PeriodDto {
  @ApiProperty({
    description: 'First day, YYYYMMDD',
    pattern: PATTERNS.version,
    example: '20251001',
  })
  start!: string;

  @ApiProperty({
    description: 'Last day, YYYYMMDD',
    pattern: PATTERNS.version,
    example: '20251231',
  })
  end!: string;
}

@ApiSchema({
  name: 'FilesOfVersion',
  description:
    'Scrape files ordered by version, then page_url, then scraper. No scrape is files: [], count: 0.',
})
export class FilesOfVersionDto {
  @ApiProperty({ type: () => [ScrapeFileDto] })
  files!: ScrapeFileDto[];

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Length of files', example: 1 })
  count!: number;
}

@ApiSchema({
  name: 'FilesOfPeriod',
  description: 'Every scrape file of every version in the period, with the period itself.',
})
export class FilesOfPeriodDto extends FilesOfVersionDto {
  @ApiProperty({ type: () => PeriodDto })
  period!: PeriodDto;
}

@ApiSchema({
  name: 'FilesOfUnifiedPeriod',
  description:
    'The unified endpoint: for a quarter, month or week only the files of the earliest version ' +
    'in the period; for a version, that version (period start = end = the version).',
})
export class FilesOfUnifiedPeriodDto extends FilesOfPeriodDto {
  @ApiProperty({
    enum: ['version', 'quarter', 'month', 'week'],
    description: 'The format detected from the pattern of period',
    example: 'quarter',
  })
  format!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    pattern: PATTERNS.version,
    description: 'The version whose files are returned; null when the period has none',
    example: '20251016',
  })
  version!: string | null;
}

@ApiSchema({
  name: 'FileVersions',
  description: 'The scrape versions of a company (all its pages) or of one page, oldest first.',
})
export class FileVersionsDto {
  @ApiProperty({ pattern: PATTERNS.companySlug, example: 'notion.so' })
  company_slug!: string;

  @ApiProperty({
    type: [String],
    description: 'Composite slugs of the pages the versions are of',
    example: ['notion', 'notion.enterprise'],
  })
  pages!: string[];

  @ApiProperty({
    type: [String],
    items: { type: 'string', pattern: PATTERNS.version },
    description: 'Every version with at least one scrape file, oldest first',
    example: ['20250901', '20251016'],
  })
  versions!: string[];

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Length of versions', example: 2 })
  count!: number;

  @ApiProperty({
    type: String,
    nullable: true,
    pattern: PATTERNS.version,
    description: 'The last of versions; null when there is no scrape',
    example: '20251016',
  })
  latest_version!: string | null;
}
