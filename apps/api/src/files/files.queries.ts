import { Injectable } from '@nestjs/common';
import type { Period } from '#app/domain';
import { ScrapeFileReader, type PricingPageEntity, type ScrapeFileEntity } from '#app/persistence';
import { SlugResolver, type SlugTarget } from '../catalogue/slug-resolver.js';

/** The read models a files answer is made from: the slug's company and pages, and their files. */
export const FILES_READ_MODELS = ['companies', 'pages', 'scrape-files'];

/**
 * The reads of the files routes. A company slug gives the files of all its pages, a composite
 * slug those of one page; no scrape in the time asked for is an empty list, not an error.
 */
@Injectable()
export class FilesQueries {
  constructor(
    private readonly files: ScrapeFileReader,
    private readonly slugs: SlugResolver,
  ) {}

  /** Every version with a scrape file of the slug's pages, oldest first (FileVersionsDto). */
  async versions(slug: string) {
    const target = await this.targetOf(slug);
    const pages = pagesOfTarget(target);
    const versions = await this.files.versions(pages.map((page) => page.id));
    return {
      company_slug: target.company.slug,
      pages: pages.map((page) => page.compositeSlug),
      versions,
      count: versions.length,
      latest_version: versions.at(-1) ?? null,
    };
  }

  /** The files of the slug's pages with a version in `period`. */
  async inPeriod(slug: string, period: Period) {
    return this.filesOf(await this.pagesOf(slug), period);
  }

  /** The files of the earliest version in `period` that has any, and that version (or null). */
  async ofEarliestVersion(slug: string, period: Period) {
    const pages = await this.pagesOf(slug);
    const pageIds = pages.map((page) => page.id);
    const version = await this.files.earliestVersion(pageIds, period.start, period.end);
    const files = version
      ? await this.filesOf(pages, { ...period, start: version, end: version })
      : [];
    return { files, version };
  }

  private async pagesOf(slug: string): Promise<PricingPageEntity[]> {
    return pagesOfTarget(await this.targetOf(slug));
  }

  private async targetOf(slug: string): Promise<SlugTarget> {
    const target = await this.slugs.resolve(slug);
    if (!target) throw this.slugs.unknownSlug(slug, 'company or page');
    return target;
  }

  private async filesOf(pages: PricingPageEntity[], period: Period) {
    const rows = await this.files.inRange(
      pages.map((page) => page.id),
      period.start,
      period.end,
    );
    return rows.map(scrapeFile);
  }
}

/** A company's pages, or the one page of a composite slug. */
function pagesOfTarget(target: SlugTarget): PricingPageEntity[] {
  return target.kind === 'company' ? target.pages : [target.page];
}

/** A scrape file as the interface shapes it (ScrapeFileDto); entities never leave the API. */
function scrapeFile(file: ScrapeFileEntity) {
  return {
    slug: file.companySlug,
    version: file.version,
    page_url: file.pageUrl,
    screenshot_url: file.screenshotUrl,
    markdown_url: file.markdownUrl,
    html_url: file.htmlUrl,
    ocr_url: file.ocrUrl,
    scraper: file.scraper,
    valid: file.valid,
    score: file.score,
    banner_free: file.bannerFree,
    created_at: file.createdAt,
    updated_at: file.updatedAt,
  };
}
