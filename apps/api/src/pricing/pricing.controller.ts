import { Controller, Get, Header, Param, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { isPeriodClosed, SERIES_STEPS, type SeriesStep, utcDate } from '#app/domain';
import type { FastifyRequest } from 'fastify';
import { KeyAccess } from '../auth/api-key.guard.js';
import { cacheableFor, MAX_AGE_SECONDS } from '../http/http-caching.js';
import { JSON_CONTENT_TYPE, ServedAheadOfNest } from '../http/read-lane.js';
import { ApiQueryOf, declaredQuery, OneOfParameters } from '../http/query-declaration.js';
import {
  CalendarDate,
  Currency,
  type GivenPeriod,
  OneOf,
  PeriodOf,
  Version,
} from '../http/query-parameters.js';
import { ApiCacheableOk, ApiErrorResponses, ApiKeyAuth } from '../openapi/decorators.js';
import { CreditCost } from '../metering/credit-cost.decorator.js';
import { EXAMPLES, PAGE_SLUG_PARAMETER } from '../openapi/parameters.js';
import {
  PricingDiffDto,
  PricingDocumentDto,
  PricingSeriesDto,
  PricingVersionsDto,
} from './pricing.dto.js';
import { PRICING_ERROR_EXAMPLES } from './pricing.examples.js';
import { PricingQueries } from './pricing.queries.js';
import { refuseReversedRange } from '../http/series-range.js';

/** The read models a pricing answer is made from: the slug's page, its extractions, the rates. */
const PRICING_READ_MODELS = ['companies', 'pages', 'pricing-snapshots', 'exchange-rates'];

@OneOfParameters(['version', 'period', 'as_of'], (given) =>
  given.includes('as_of')
    ? 'Give as_of alone, not with version or period'
    : 'Give version or period, not both',
)
class PricingQuery {
  @Version({
    description: 'YYYYMMDD: the extraction of that scrape version',
    example: EXAMPLES.version,
  })
  version?: string;

  // No example: tools that send every example (Dredd) would send it with version's, a 400.
  @PeriodOf({
    description:
      'A quarter YYYYQ#, a week YYYYW##, a month YYYYM## or YYYY## (or a version YYYYMMDD): ' +
      'the earliest extraction within it, such as 2025Q1',
  })
  period?: GivenPeriod;

  // No example either, for the same reason.
  @CalendarDate({
    description:
      'A calendar date YYYYMMDD: the latest extraction on or before it (the pricing as it stood ' +
      'that day), such as 20250201; not with version or period',
  })
  as_of?: string;

  @Currency()
  currency?: string;
}

class PricingSeriesQuery {
  @OneOf(SERIES_STEPS, { description: 'The step between points; default month' }, 'month')
  step!: SeriesStep;

  @CalendarDate({
    description: "YYYYMMDD; default the page's first extraction (or to, when that is later)",
    example: EXAMPLES.version,
  })
  from?: string;

  @CalendarDate({ description: 'YYYYMMDD; default today (UTC)', example: EXAMPLES.laterVersion })
  to?: string;

  @Currency({ example: 'EUR' })
  currency?: string;
}

class PricingDiffQuery {
  @Version({
    required: true,
    description: 'YYYYMMDD: a version with an extraction, the one compared from',
    example: EXAMPLES.version,
  })
  from!: string;

  @Version({
    description: 'YYYYMMDD: a version with an extraction, the one compared to; default the latest',
    example: EXAMPLES.laterVersion,
  })
  to?: string;
}

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
  @ApiQueryOf(PricingQuery)
  @ApiCacheableOk(PricingDocumentDto, 'The pricing structure')
  @ApiErrorResponses('coded', [400, 401, 403, 404, 500], PRICING_ERROR_EXAMPLES.one)
  async one(
    @Param('slug') slug: string,
    @Query(declaredQuery) { version, period, as_of: asOf, currency }: PricingQuery,
    @Req() request: FastifyRequest,
  ): Promise<string> {
    if (asOf !== undefined) return this.pricing.documentAsOf(slug, asOf, currency);
    if (version !== undefined) {
      const document = await this.pricing.documentOfVersion(slug, version, currency);
      // A rate pushed later for an earlier day may still change a converted document.
      cacheableFor(
        request,
        currency === undefined ? MAX_AGE_SECONDS.immutable : MAX_AGE_SECONDS.mayGrow,
      );
      return document;
    }
    if (period !== undefined) {
      const document = await this.pricing.documentInPeriod(
        slug,
        period.text,
        period.period,
        currency,
      );
      // An earlier extraction of the period may still arrive.
      if (isPeriodClosed(period.period, new Date())) cacheableFor(request, MAX_AGE_SECONDS.mayGrow);
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
  @ApiQueryOf(PricingSeriesQuery)
  @ApiOkResponse({ type: PricingSeriesDto, description: 'The points, oldest first' })
  @ApiErrorResponses('coded', [400, 401, 403, 404, 500], PRICING_ERROR_EXAMPLES.series)
  series(
    @Param('slug') slug: string,
    @Query(declaredQuery) { step, from, to = utcDate(new Date()), currency }: PricingSeriesQuery,
  ) {
    refuseReversedRange(from, to);
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
  @ApiQueryOf(PricingDiffQuery)
  @ApiCacheableOk(PricingDiffDto, 'The changes, in a stable order')
  @ApiErrorResponses('coded', [400, 401, 403, 404, 500], PRICING_ERROR_EXAMPLES.diff)
  async diff(
    @Param('slug') slug: string,
    @Query(declaredQuery) { from, to }: PricingDiffQuery,
    @Req() request: FastifyRequest,
  ): Promise<string> {
    if (to === undefined) return this.pricing.diff(slug, from, null);
    const diff = await this.pricing.diff(slug, from, to);
    // Two extractions never change, so neither does their diff.
    cacheableFor(request, MAX_AGE_SECONDS.immutable);
    return diff;
  }
}
