import { ApiSchema } from '@nestjs/swagger';
import { PATTERNS } from '../openapi/patterns.js';
import { Properties, WithProperties, version, nullableVersion } from '../openapi/properties.js';

/** Response bodies of the files routes (docs/API.md, "Resources"). */

/** The URL of one rendition of the scrape, or null. */
const fileUrl = (of: string, example: string | null) =>
  ({ nullable: true, description: `URL of ${of}`, example }) as const;
const CDN = 'https://cdn.example.com/notion.so/20251016';
const SCRAPE_TIME = { format: 'date-time', nullable: true, example: '2025-10-16T06:00:00.000Z' };

@ApiSchema({
  name: 'ScrapeFile',
  description: 'One scrape of a pricing page; it never changes after creation.',
})
export class ScrapeFileDto extends Properties({
  slug: { description: 'Company slug', pattern: PATTERNS.companySlug, example: 'notion.so' },
  version: version('Scrape version, YYYYMMDD', '20251016'),
  page_url: {
    description: 'URL of the original pricing page',
    example: 'https://www.notion.so/pricing',
  },
  screenshot_url: fileUrl('the screenshot image', `${CDN}/page.png`),
  markdown_url: fileUrl('the markdown version', `${CDN}/page.md`),
  html_url: fileUrl('the HTML version', null),
  ocr_url: fileUrl('the OCR JSON', null),
  scraper: {
    nullable: true,
    description: 'Which scraper produced it (one of the configured scrapers)',
    example: 'scraper_1',
  },
  valid: {
    type: Boolean,
    nullable: true,
    description: 'Whether the scrape is valid',
    example: true,
  },
  score: {
    type: 'integer',
    nullable: true,
    minimum: 0,
    maximum: 10,
    description: 'Quality score, 0 to 10',
    example: 8,
  },
  banner_free: {
    type: Boolean,
    nullable: true,
    description: 'Whether the page is free of banners',
    example: true,
  },
  created_at: SCRAPE_TIME,
  updated_at: SCRAPE_TIME,
}) {}

@ApiSchema({ name: 'Period', description: 'A closed range of days, both ends included.' })
class PeriodDto extends Properties({
  start: version('First day, YYYYMMDD', '20251001'),
  end: version('Last day, YYYYMMDD', '20251231'),
}) {}

@ApiSchema({
  name: 'FilesOfVersion',
  description:
    'Scrape files ordered by version, then page_url, then scraper. No scrape is files: [], count: 0.',
})
export class FilesOfVersionDto extends Properties({
  files: { type: () => [ScrapeFileDto] },
  count: { type: 'integer', minimum: 0, description: 'Length of files', example: 1 },
}) {}

@ApiSchema({
  name: 'FilesOfPeriod',
  description: 'Every scrape file of every version in the period, with the period itself.',
})
export class FilesOfPeriodDto extends WithProperties(FilesOfVersionDto, {
  period: { type: () => PeriodDto },
}) {}

@ApiSchema({
  name: 'FilesOfUnifiedPeriod',
  description:
    'The unified endpoint: for a quarter, month or week only the files of the earliest version ' +
    'in the period; for a version, that version (period start = end = the version).',
})
export class FilesOfUnifiedPeriodDto extends WithProperties(FilesOfPeriodDto, {
  format: {
    enum: ['version', 'quarter', 'month', 'week'],
    description: 'The format detected from the pattern of period',
    example: 'quarter',
  },
  version: nullableVersion(
    'The version whose files are returned; null when the period has none',
    '20251016',
  ),
}) {}

@ApiSchema({
  name: 'FileVersions',
  description: 'The scrape versions of a company (all its pages) or of one page, oldest first.',
})
export class FileVersionsDto extends Properties({
  company_slug: { pattern: PATTERNS.companySlug, example: 'notion.so' },
  pages: {
    type: [String],
    description: 'Composite slugs of the pages the versions are of',
    example: ['notion', 'notion.enterprise'],
  },
  versions: {
    type: [String],
    items: { type: 'string', pattern: PATTERNS.version },
    description: 'Every version with at least one scrape file, oldest first',
    example: ['20250901', '20251016'],
  },
  count: { type: 'integer', minimum: 0, description: 'Length of versions', example: 2 },
  latest_version: nullableVersion('The last of versions; null when there is no scrape', '20251016'),
}) {}
