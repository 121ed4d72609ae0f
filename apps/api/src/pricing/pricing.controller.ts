import { Controller, Get, Header, Param, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  isPeriodClosed,
  isSeriesStep,
  parsePeriod,
  parseVersion,
  SERIES_STEPS,
  utcDate,
} from '#app/domain';
import type { FastifyRequest } from 'fastify';
import { KeyAccess } from '../auth/api-key.guard.js';
import { ApiError } from '../errors/api-error.js';
import { cacheableFor, MAX_AGE_SECONDS } from '../http/http-caching.js';
import { JSON_CONTENT_TYPE, ServedAheadOfNest } from '../http/read-lane.js';
import { calendarDateOrThrow, periodOrThrow } from '../http/period-parameter.js';
import { currencyParameter, optionalText, type QueryValue } from '../http/query-parameters.js';
import { ApiCacheableOk, ApiErrorResponses, ApiKeyAuth } from '../openapi/decorators.js';
import { CreditCost } from '../metering/credit-cost.decorator.js';
import { CURRENCY_PARAMETER, EXAMPLES, PAGE_SLUG_PARAMETER } from '../openapi/parameters.js';
import { PATTERNS } from '../openapi/patterns.js';
import {
  PricingDiffDto,
  PricingDocumentDto,
  PricingSeriesDto,
  PricingVersionsDto,
} from './pricing.dto.js';
import { PRICING_ERROR_EXAMPLES } from './pricing.examples.js';
import { PricingQueries } from './pricing.queries.js';

/** The read models a pricing answer is made from: the slug's page, its extractions, the rates. */
const PRICING_READ_MODELS = ['companies', 'pages', 'pricing-snapshots', 'exchange-rates'];

/**
 * Pricing structure of one page: the latest version, a given version, or a period's earliest;
 * the versions there are (free), and the changes between two of them.
 */
@Controller('api/pricing')
@KeyAccess({ scope: 'read', feature: 'pricing' })
@ApiTags('Pricing')
@ApiKeyAuth()
@CreditCost(1)
export class PricingController {
  constructor(private readonly pricing: PricingQueries) {}

  @Get(':slug')
  @ServedAheadOfNest(PRICING_READ_MODELS)
  @Header('content-type', JSON_CONTENT_TYPE)
  @ApiOperation({
    operationId: 'getPricing',
    summary: 'Pricing structure of one pricing page',
    description:
      'With neither parameter, the latest version; with version, that version; with period, ' +
      'the earliest version within the period. version and period together give 400 ' +
      'CONFLICTING_PARAMETERS. Cacheable when addressed by a version or a period that has ended.',
  })
  @ApiParam(PAGE_SLUG_PARAMETER)
  @ApiQuery({
    name: 'version',
    required: false,
    type: String,
    pattern: PATTERNS.version,
    description: 'YYYYMMDD: the extraction of that scrape version',
    example: EXAMPLES.version,
  })
  // No example: tools that send every example (Dredd) would send it with version's, a 400.
  @ApiQuery({
    name: 'period',
    required: false,
    type: String,
    pattern: PATTERNS.period,
    description:
      'A quarter YYYYQ#, a week YYYYW##, a month YYYYM## or YYYY## (or a version YYYYMMDD): ' +
      'the earliest extraction within it, such as 2025Q1',
  })
  // No example either, for the same reason.
  @ApiQuery({
    name: 'as_of',
    required: false,
    type: String,
    pattern: PATTERNS.version,
    description:
      'A calendar date YYYYMMDD: the latest extraction on or before it (the pricing as it stood ' +
      'that day), such as 20250201; not with version or period',
  })
  @ApiQuery(CURRENCY_PARAMETER)
  @ApiCacheableOk(PricingDocumentDto, 'The pricing structure')
  @ApiErrorResponses('coded', [400, 401, 403, 404, 500], PRICING_ERROR_EXAMPLES.one)
  async one(
    @Param('slug') slug: string,
    @Query('version') versionValue: QueryValue,
    @Query('period') periodValue: QueryValue,
    @Query('as_of') asOfValue: QueryValue,
    @Query('currency') currencyValue: QueryValue,
    @Req() request: FastifyRequest,
  ): Promise<string> {
    const version = optionalText('version', versionValue, 20);
    const periodText = optionalText('period', periodValue, 20);
    const asOf = optionalText('as_of', asOfValue, 20);
    const given = { version, period: periodText, as_of: asOf };
    const provided = Object.fromEntries(
      Object.entries(given).filter(([, value]) => value !== undefined),
    );
    if (Object.keys(provided).length > 1) {
      const message =
        asOf === undefined
          ? 'Give version or period, not both'
          : 'Give as_of alone, not with version or period';
      throw new ApiError(400, 'CONFLICTING_PARAMETERS', message, { provided });
    }
    const currency = currencyParameter(currencyValue);
    if (asOf !== undefined) {
      return this.pricing.documentAsOf(slug, calendarDateOrThrow('as_of', asOf), currency);
    }
    if (version !== undefined) {
      periodOrThrow(parseVersion(version), version);
      const document = await this.pricing.documentOfVersion(slug, version, currency);
      // A rate pushed later for an earlier day may still change a converted document.
      cacheableFor(
        request,
        currency === undefined ? MAX_AGE_SECONDS.immutable : MAX_AGE_SECONDS.mayGrow,
      );
      return document;
    }
    if (periodText !== undefined) {
      const period = periodOrThrow(parsePeriod(periodText), periodText);
      const document = await this.pricing.documentInPeriod(slug, periodText, period, currency);
      // An earlier extraction of the period may still arrive.
      if (isPeriodClosed(period, new Date())) cacheableFor(request, MAX_AGE_SECONDS.mayGrow);
      return document;
    }
    return this.pricing.latestDocument(slug, currency);
  }

  @Get(':slug/versions')
  @CreditCost(0)
  @ApiOperation({
    operationId: 'getPricingVersions',
    summary: 'Versions of one pricing page that have an extraction',
    description:
      'Oldest first. Free: never charged nor counted in the hourly window; the burst limit ' +
      'applies. Needs the pricing feature.',
  })
  @ApiParam(PAGE_SLUG_PARAMETER)
  @ApiOkResponse({ type: PricingVersionsDto, description: 'The versions, oldest first' })
  @ApiErrorResponses('coded', [400, 401, 403, 404, 500], PRICING_ERROR_EXAMPLES.versions)
  versions(@Param('slug') slug: string) {
    return this.pricing.versions(slug);
  }

  @Get(':slug/series')
  @ApiOperation({
    operationId: 'getPricingSeries',
    summary: 'The pricing of one page at each step of a range',
    description:
      'One point per step, from the step that contains from to the step that contains to, ' +
      'oldest first (ISO weeks start on Monday; months and quarters on their first day): the ' +
      "latest extraction on or before the point's date (version null and no plans before the " +
      'first). At most 520 points. With currency, each charge also carries converted.',
  })
  @ApiParam(PAGE_SLUG_PARAMETER)
  @ApiQuery({
    name: 'step',
    required: false,
    enum: SERIES_STEPS,
    description: 'The step between points; default month',
    example: 'month',
  })
  @ApiQuery({
    name: 'from',
    required: false,
    type: String,
    pattern: PATTERNS.version,
    description: "YYYYMMDD; default the page's first extraction (or to, when that is later)",
    example: EXAMPLES.version,
  })
  @ApiQuery({
    name: 'to',
    required: false,
    type: String,
    pattern: PATTERNS.version,
    description: 'YYYYMMDD; default today (UTC)',
    example: EXAMPLES.laterVersion,
  })
  @ApiQuery({ ...CURRENCY_PARAMETER, example: 'EUR' })
  @ApiOkResponse({ type: PricingSeriesDto, description: 'The points, oldest first' })
  @ApiErrorResponses('coded', [400, 401, 403, 404, 500], PRICING_ERROR_EXAMPLES.series)
  series(
    @Param('slug') slug: string,
    @Query('step') stepValue: QueryValue,
    @Query('from') fromValue: QueryValue,
    @Query('to') toValue: QueryValue,
    @Query('currency') currencyValue: QueryValue,
  ) {
    const step = optionalText('step', stepValue, 20) ?? 'month';
    if (!isSeriesStep(step)) {
      throw new ApiError(
        400,
        'INVALID_PARAMETER',
        `step must be one of ${SERIES_STEPS.join(', ')}`,
        {
          parameter: 'step',
          provided: step,
          valid_values: [...SERIES_STEPS],
        },
      );
    }
    const dateOf = (name: string, value: QueryValue) => {
      const text = optionalText(name, value, 20);
      return text === undefined ? undefined : calendarDateOrThrow(name, text);
    };
    const from = dateOf('from', fromValue);
    const to = dateOf('to', toValue) ?? utcDate(new Date());
    if (from !== undefined && from > to) {
      throw new ApiError(400, 'INVALID_RANGE', `from (${from}) is after to (${to})`, {
        provided: { from, to },
      });
    }
    const currency = currencyParameter(currencyValue);
    return this.pricing.series(slug, { step, from, to, currency });
  }

  @Get(':slug/diff')
  @ServedAheadOfNest(PRICING_READ_MODELS)
  @Header('content-type', JSON_CONTENT_TYPE)
  @ApiOperation({
    operationId: 'getPricingDiff',
    summary: 'Changes of a pricing page between two versions',
    description:
      'Plans, charges and discounts added, removed and changed from version from to version ' +
      'to (the latest when to is not given), computed from the two pricing documents. Plans ' +
      'match by internal_name, charges within a plan by billing and display_name, discounts ' +
      'within a plan by discount_category. from equal to to gives no change; from after to ' +
      'gives the changes backwards. Cacheable when both versions are given.',
  })
  @ApiParam(PAGE_SLUG_PARAMETER)
  @ApiQuery({
    name: 'from',
    required: true,
    type: String,
    pattern: PATTERNS.version,
    description: 'YYYYMMDD: a version with an extraction, the one compared from',
    example: EXAMPLES.version,
  })
  @ApiQuery({
    name: 'to',
    required: false,
    type: String,
    pattern: PATTERNS.version,
    description: 'YYYYMMDD: a version with an extraction, the one compared to; default the latest',
    example: EXAMPLES.laterVersion,
  })
  @ApiCacheableOk(PricingDiffDto, 'The changes, in a stable order')
  @ApiErrorResponses('coded', [400, 401, 403, 404, 500], PRICING_ERROR_EXAMPLES.diff)
  async diff(
    @Param('slug') slug: string,
    @Query('from') fromValue: QueryValue,
    @Query('to') toValue: QueryValue,
    @Req() request: FastifyRequest,
  ): Promise<string> {
    const from = optionalText('from', fromValue, 20);
    const to = optionalText('to', toValue, 20);
    if (from === undefined) {
      throw new ApiError(400, 'INVALID_PARAMETER', 'from is required: a version YYYYMMDD', {
        parameter: 'from',
        provided: null,
        expected: 'a version YYYYMMDD',
      });
    }
    periodOrThrow(parseVersion(from), from);
    if (to === undefined) return this.pricing.diff(slug, from, null);
    periodOrThrow(parseVersion(to), to);
    const diff = await this.pricing.diff(slug, from, to);
    // Two extractions never change, so neither does their diff.
    cacheableFor(request, MAX_AGE_SECONDS.immutable);
    return diff;
  }
}
