import { Controller, Get, Param, Req, UseGuards } from '@nestjs/common';
import {
  PERIOD_EXAMPLES,
  isPeriodClosed,
  parseMonth,
  parsePeriod,
  parseQuarter,
  parseVersion,
  parseWeek,
  type Period,
  type PeriodResult,
} from '#app/domain';
import { ScrapeFileReader, type PricingPageEntity } from '#app/persistence';
import type { FastifyRequest } from 'fastify';
import { ApiKeyGuard } from '../auth/api-key.guard.js';
import { ApiError } from '../errors/api-error.js';
import { markImmutable } from '../http/immutable-response.js';
import { scrapeFile } from './representations.js';
import { SlugResolver } from './slug-resolver.js';

/** A valid period, or the documented 400 for the input. */
export function periodOrThrow(result: PeriodResult, provided: string): Period {
  if (result.ok) return result.period;
  throw new ApiError(400, result.code, result.message, {
    provided,
    ...(result.code === 'INVALID_PERIOD_FORMAT' ? { examples: PERIOD_EXAMPLES } : {}),
  });
}

/**
 * Scrape files. A company slug gives the files of all its pages, a composite slug those of one
 * page; no scrape in the time asked for is an empty list, not an error.
 */
@Controller('api/files')
@UseGuards(ApiKeyGuard('read', 'files'))
export class FilesController {
  constructor(
    private readonly files: ScrapeFileReader,
    private readonly slugs: SlugResolver,
  ) {}

  @Get(':slug/version/:version')
  async byVersion(
    @Param('slug') slug: string,
    @Param('version') version: string,
    @Req() request: FastifyRequest,
  ) {
    const period = periodOrThrow(parseVersion(version), version);
    const files = await this.filesOf(await this.pagesOf(slug), period);
    markImmutable(request);
    return { files, count: files.length };
  }

  @Get(':slug/quarter/:quarter')
  byQuarter(
    @Param('slug') slug: string,
    @Param('quarter') quarter: string,
    @Req() request: FastifyRequest,
  ) {
    return this.inPeriod(slug, periodOrThrow(parseQuarter(quarter), quarter), request);
  }

  @Get(':slug/month/:month')
  byMonth(
    @Param('slug') slug: string,
    @Param('month') month: string,
    @Req() request: FastifyRequest,
  ) {
    return this.inPeriod(slug, periodOrThrow(parseMonth(month), month), request);
  }

  @Get(':slug/week/:week')
  byWeek(@Param('slug') slug: string, @Param('week') week: string, @Req() request: FastifyRequest) {
    return this.inPeriod(slug, periodOrThrow(parseWeek(week), week), request);
  }

  /** Unified: the format is detected; a quarter, month or week gives its earliest version only. */
  @Get(':slug/period/:period')
  async byPeriod(
    @Param('slug') slug: string,
    @Param('period') input: string,
    @Req() request: FastifyRequest,
  ) {
    const period = periodOrThrow(parsePeriod(input), input);
    const pages = await this.pagesOf(slug);
    const pageIds = pages.map((page) => page.id);
    const version = await this.files.earliestVersion(pageIds, period.start, period.end);
    const files = version
      ? await this.filesOf(pages, { ...period, start: version, end: version })
      : [];
    if (isPeriodClosed(period, new Date())) markImmutable(request);
    return {
      files,
      count: files.length,
      period: { start: period.start, end: period.end },
      format: period.format,
      version,
    };
  }

  private async inPeriod(slug: string, period: Period, request: FastifyRequest) {
    const files = await this.filesOf(await this.pagesOf(slug), period);
    if (isPeriodClosed(period, new Date())) markImmutable(request);
    return { files, count: files.length, period: { start: period.start, end: period.end } };
  }

  private async pagesOf(slug: string): Promise<PricingPageEntity[]> {
    const target = await this.slugs.resolve(slug);
    if (!target) {
      throw new ApiError(404, 'NOT_FOUND', `No company or page with slug ${slug}`, {
        slug,
        message: `No company or page with slug ${slug}`,
      });
    }
    return target.kind === 'company' ? target.pages : [target.page];
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
