import { Controller, Get, Param, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  isPeriodClosed,
  parseMonth,
  parsePeriod,
  parseQuarter,
  parseVersion,
  parseWeek,
  type Period,
} from '#app/domain';
import type { FastifyRequest } from 'fastify';
import { KeyAccess } from '../auth/api-key.guard.js';
import { cacheableFor, MAX_AGE_SECONDS } from '../http/http-caching.js';
import { ServedAheadOfNest } from '../http/read-lane.js';
import { periodOrThrow } from '../http/period-parameter.js';
import { ApiCacheableOk, ApiErrorResponses, ApiKeyAuth } from '../openapi/decorators.js';
import { CreditCost } from '../metering/credit-cost.decorator.js';
import { EXAMPLES, FILES_SLUG_PARAMETER, pathParameter } from '../openapi/parameters.js';
import { PATTERNS } from '../openapi/patterns.js';
import {
  FilesOfPeriodDto,
  FilesOfUnifiedPeriodDto,
  FilesOfVersionDto,
  FileVersionsDto,
} from './files.dto.js';
import { FILES_ERROR_EXAMPLES } from './files.examples.js';
import { FILES_READ_MODELS, FilesQueries } from './files.queries.js';

/** Scrape files (FilesQueries), with the caching headers of answers addressed by a time past. */
@Controller('api/files')
@KeyAccess({ scope: 'read', feature: 'files' })
@ApiTags('Files')
@ApiKeyAuth()
@CreditCost(1)
export class FilesController {
  constructor(private readonly files: FilesQueries) {}

  @Get(':slug/versions')
  @CreditCost(0)
  @ApiOperation({
    operationId: 'getFileVersions',
    summary: 'Scrape versions of a company or of one page',
    description:
      'Every version with at least one scrape file, oldest first: of all the pages of a ' +
      'company, or of one page for a composite slug. Free: never charged nor counted in the ' +
      'hourly window; the burst limit applies. Needs the files feature.',
  })
  @ApiParam(FILES_SLUG_PARAMETER)
  @ApiOkResponse({ type: FileVersionsDto, description: 'The versions, oldest first' })
  @ApiErrorResponses('coded', [400, 401, 403, 404, 500], FILES_ERROR_EXAMPLES.versions)
  versions(@Param('slug') slug: string) {
    return this.files.versions(slug);
  }

  @Get(':slug/version/:version')
  @ServedAheadOfNest(FILES_READ_MODELS)
  @ApiOperation({
    operationId: 'getFilesByVersion',
    summary: 'Scrape files of one version',
    description:
      'Cacheable for a minute (ETag, Cache-Control: private, max-age=60): another scraper may ' +
      'still add a scrape of the same version. No scrape of that version is 200 with files: [] ' +
      'and count: 0, revalidated at every use (max-age=0).',
  })
  @ApiParam(FILES_SLUG_PARAMETER)
  @ApiParam(
    pathParameter('version', 'YYYYMMDD, a real calendar date', PATTERNS.version, EXAMPLES.version),
  )
  @ApiCacheableOk(
    FilesOfVersionDto,
    'The files of the version, with an ETag: reusable for a minute, then revalidated (at every ' +
      'use while there is none)',
  )
  @ApiErrorResponses('coded', [400, 401, 403, 404, 500], FILES_ERROR_EXAMPLES.byVersion)
  async byVersion(
    @Param('slug') slug: string,
    @Param('version') version: string,
    @Req() request: FastifyRequest,
  ) {
    const period = periodOrThrow(parseVersion(version), version);
    const files = await this.files.inPeriod(slug, period);
    markCacheable(request, period, files.length);
    return { files, count: files.length };
  }

  @Get(':slug/quarter/:quarter')
  @ServedAheadOfNest(FILES_READ_MODELS)
  @ApiOperation({
    operationId: 'getFilesByQuarter',
    summary: 'Scrape files of a quarter',
    description:
      'Every file of every version in the quarter (Q1 January to March ... Q4 October to ' +
      'December). Cacheable once the quarter has ended.',
  })
  @ApiParam(FILES_SLUG_PARAMETER)
  @ApiParam(
    pathParameter(
      'quarter',
      'YYYYQ#, # from 1 to 4 (Q in either case)',
      PATTERNS.quarter,
      EXAMPLES.quarter,
    ),
  )
  @ApiCacheableOk(FilesOfPeriodDto, 'The files of the quarter, with its first and last day')
  @ApiErrorResponses('coded', [400, 401, 403, 404, 500], FILES_ERROR_EXAMPLES.byQuarter)
  byQuarter(
    @Param('slug') slug: string,
    @Param('quarter') quarter: string,
    @Req() request: FastifyRequest,
  ) {
    return this.inPeriod(slug, periodOrThrow(parseQuarter(quarter), quarter), request);
  }

  @Get(':slug/month/:month')
  @ServedAheadOfNest(FILES_READ_MODELS)
  @ApiOperation({
    operationId: 'getFilesByMonth',
    summary: 'Scrape files of a month',
    description: 'Every file of every version in the month. Cacheable once the month has ended.',
  })
  @ApiParam(FILES_SLUG_PARAMETER)
  @ApiParam(
    pathParameter(
      'month',
      'YYYYM## or YYYYM# (M in either case) or YYYY##; month from 1 to 12',
      PATTERNS.month,
      EXAMPLES.month,
    ),
  )
  @ApiCacheableOk(FilesOfPeriodDto, 'The files of the month, with its first and last day')
  @ApiErrorResponses('coded', [400, 401, 403, 404, 500], FILES_ERROR_EXAMPLES.byMonth)
  byMonth(
    @Param('slug') slug: string,
    @Param('month') month: string,
    @Req() request: FastifyRequest,
  ) {
    return this.inPeriod(slug, periodOrThrow(parseMonth(month), month), request);
  }

  @Get(':slug/week/:week')
  @ServedAheadOfNest(FILES_READ_MODELS)
  @ApiOperation({
    operationId: 'getFilesByWeek',
    summary: 'Scrape files of an ISO week',
    description:
      'Every file of every version in the ISO 8601 week (Monday to Sunday; week 1 holds the ' +
      'first Thursday). Cacheable once the week has ended.',
  })
  @ApiParam(FILES_SLUG_PARAMETER)
  @ApiParam(
    pathParameter(
      'week',
      'YYYYW## (W in either case), 1 to 53; week 53 only in ISO years that have it',
      PATTERNS.week,
      EXAMPLES.week,
    ),
  )
  @ApiCacheableOk(FilesOfPeriodDto, 'The files of the week, with its first and last day')
  @ApiErrorResponses('coded', [400, 401, 403, 404, 500], FILES_ERROR_EXAMPLES.byWeek)
  byWeek(@Param('slug') slug: string, @Param('week') week: string, @Req() request: FastifyRequest) {
    return this.inPeriod(slug, periodOrThrow(parseWeek(week), week), request);
  }

  /** Unified: the format is detected; a quarter, month or week gives its earliest version only. */
  @Get(':slug/period/:period')
  @ServedAheadOfNest(FILES_READ_MODELS)
  @ApiOperation({
    operationId: 'getFilesByPeriod',
    summary: 'Scrape files of a version or period (format detected)',
    description:
      'The format is read from the pattern of period. For a quarter, month or week only the ' +
      'files of the earliest version in the period are returned, and version names it (null ' +
      'when there is none); for a version, its files, with period start = end = the version.',
  })
  @ApiParam(FILES_SLUG_PARAMETER)
  @ApiParam(
    pathParameter(
      'period',
      'A version YYYYMMDD, a quarter YYYYQ#, a month YYYYM## or YYYY##, or a week YYYYW##',
      PATTERNS.period,
      EXAMPLES.period,
    ),
  )
  @ApiCacheableOk(
    FilesOfUnifiedPeriodDto,
    'The files of one version, the period and the detected format',
  )
  @ApiErrorResponses('coded', [400, 401, 403, 404, 500], FILES_ERROR_EXAMPLES.byPeriod)
  async byPeriod(
    @Param('slug') slug: string,
    @Param('period') input: string,
    @Req() request: FastifyRequest,
  ) {
    const period = periodOrThrow(parsePeriod(input), input);
    const { files, version } = await this.files.ofEarliestVersion(slug, period);
    markCacheable(request, period, files.length);
    return {
      files,
      count: files.length,
      period: { start: period.start, end: period.end },
      format: period.format,
      version,
    };
  }

  /** The files of every version in a quarter, month or week. */
  private async inPeriod(slug: string, period: Period, request: FastifyRequest) {
    const files = await this.files.inPeriod(slug, period);
    markCacheable(request, period, files.length);
    return { files, count: files.length, period: { start: period.start, end: period.end } };
  }
}

/**
 * An answer addressed by a version (whichever endpoint) or by a period that has ended is
 * cacheable, for a minute: another scraper's scrape of one of its versions may still add a file.
 * While it has none, it is revalidated at every use: its first scrape may be on its way.
 */
function markCacheable(request: FastifyRequest, period: Period, files: number) {
  if (period.format === 'version' || isPeriodClosed(period, new Date())) {
    cacheableFor(request, files > 0 ? MAX_AGE_SECONDS.mayGrow : MAX_AGE_SECONDS.empty);
  }
}
