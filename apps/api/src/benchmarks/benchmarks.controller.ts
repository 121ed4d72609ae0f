import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CATEGORIES,
  MAX_PRICE_INDEX_POINTS,
  PRICE_INDEX_STEPS,
  utcDate,
  type PriceIndexStep,
} from '#app/domain';
import { KeyAccess } from '../auth/api-key.guard.js';
import { ServedAheadOfNest } from '../http/read-lane.js';
import { ApiQueryOf, declaredQuery } from '../http/query-declaration.js';
import {
  COMPANY_SLUG_LENGTH,
  CalendarDate,
  Categories,
  Currency,
  EmployeeBands,
  List,
  OneOf,
  Text,
} from '../http/query-parameters.js';
import { CreditCost } from '../metering/credit-cost.decorator.js';
import { ApiErrorResponses, ApiKeyAuth } from '../openapi/decorators.js';
import { EXAMPLES } from '../openapi/parameters.js';
import { BenchmarkDto, PriceIndexDto } from './benchmarks.dto.js';
import { BENCHMARKS_ERROR_EXAMPLES } from './benchmarks.examples.js';
import { BenchmarksQueries, type SampleFilters } from './benchmarks.queries.js';
import { refuseReversedRange } from '../http/series-range.js';

// The filters of the sample, which both routes take alike.
const CATEGORY = Categories({
  description: `Categories of the pages' companies, comma-separated, any case: ${CATEGORIES.join(', ')}`,
  example: 'communication',
});
const EMPLOYEES = EmployeeBands({
  description: "Size bands of the pages' companies, comma-separated (encode + as %2B)",
  example: '51-200',
});
const BILLING = List({
  description: 'Count only charges of these billings, comma-separated',
  example: 'monthly_recurring_billed_monthly',
});
const MODALITY = List({
  description:
    'Count only charges whose pricing metric has one of these modalities, comma-separated',
  example: 'user_based',
});

class BenchmarkQuery {
  @CATEGORY
  category?: string[];

  @EMPLOYEES
  employees?: string[];

  @BILLING
  billing?: string[];

  @MODALITY
  modality?: string[];

  @Currency({
    example: 'USD',
    description:
      'Convert every charge into this currency (three letters, any case) before the lowest is ' +
      'taken: one group, and unconverted counts the pages left out for want of a rate',
  })
  currency?: string;

  @CalendarDate({
    description: 'YYYYMMDD: the extractions in force that day; default today (UTC)',
    example: EXAMPLES.laterVersion,
  })
  as_of?: string;

  /** Resolved as the routes' slugs are: an unknown one is a 404. */
  @Text(
    {
      description: "A company slug: each of its pages' entry price and percentile rank",
      example: EXAMPLES.companySlug,
    },
    COMPANY_SLUG_LENGTH,
  )
  company?: string;
}

class PriceIndexQuery {
  @CATEGORY
  category?: string[];

  @EMPLOYEES
  employees?: string[];

  @BILLING
  billing?: string[];

  @MODALITY
  modality?: string[];

  @Currency({
    example: 'USD',
    description:
      'Convert every charge into this currency (three letters, any case) before the lowest is ' +
      'taken: one group per point',
  })
  currency?: string;

  @CalendarDate({
    required: true,
    description: 'YYYYMMDD: the first point is the start of the step that contains it',
    example: EXAMPLES.version,
  })
  from!: string;

  @CalendarDate({
    description:
      'YYYYMMDD: the last point is the start of the step that contains it; default today (UTC)',
    example: EXAMPLES.laterVersion,
  })
  to?: string;

  @OneOf(PRICE_INDEX_STEPS, { description: 'The step between points; default month' }, 'month')
  step!: PriceIndexStep;
}

/** The read models a price index is made from: the entry prices, and the rates that convert them. */
const PRICE_INDEX_READ_MODELS = ['price-index', 'exchange-rates'];

const filtersOf = (query: BenchmarkQuery | PriceIndexQuery): SampleFilters => ({
  categories: query.category,
  employees: query.employees,
  billing: query.billing,
  modalities: query.modality,
});

@Controller('api/benchmarks')
@KeyAccess({ scope: 'read', feature: 'pricing' })
@ApiTags('Pricing analytics')
@ApiKeyAuth()
@CreditCost(1)
export class BenchmarksController {
  constructor(private readonly benchmarks: BenchmarksQueries) {}

  @Get()
  @ApiOperation({
    operationId: 'getBenchmarks',
    summary: "Entry-price quartiles of a sample of pages, and a company's percentile rank",
    description:
      'The entry price of a page is the lowest monthly equivalent above 0 among the charges of ' +
      'its plans that are not add-ons, in the extraction in force at as_of, counting only the ' +
      'charges that match billing and modality when given; a page without one is not in the ' +
      'sample. One group per currency (a page pricing in two is in both), or exactly one with ' +
      'currency. A group of fewer than 3 pages has null figures.',
  })
  @ApiQueryOf(BenchmarkQuery)
  @ApiOkResponse({ type: BenchmarkDto, description: 'The groups, and the company when asked' })
  @ApiErrorResponses('coded', [400, 401, 403, 404, 500], BENCHMARKS_ERROR_EXAMPLES.benchmark)
  benchmark(@Query(declaredQuery) query: BenchmarkQuery) {
    return this.benchmarks.benchmark({
      filters: filtersOf(query),
      currency: query.currency,
      asOf: query.as_of ?? utcDate(new Date()),
      company: query.company,
    });
  }

  @Get('series')
  // `to` defaults to today: the lane keeps an answer for the day it was made on.
  @ServedAheadOfNest(PRICE_INDEX_READ_MODELS, { today: true })
  @ApiOperation({
    operationId: 'getPriceIndex',
    summary: 'The entry-price quartiles of a sample of pages at each step of a range',
    description:
      'One point per month or quarter, from the step that contains from to the step that ' +
      'contains to, oldest first (months and quarters start on their first day): the groups ' +
      "GET /v1/api/benchmarks answers with the same filters at as_of = the point's date. At " +
      `most ${MAX_PRICE_INDEX_POINTS} points.`,
  })
  @ApiQueryOf(PriceIndexQuery)
  @ApiOkResponse({ type: PriceIndexDto, description: 'The points, oldest first' })
  @ApiErrorResponses('coded', [400, 401, 403, 500], BENCHMARKS_ERROR_EXAMPLES.series)
  series(@Query(declaredQuery) query: PriceIndexQuery) {
    const { from, to = utcDate(new Date()), step, currency } = query;
    refuseReversedRange(from, to);
    return this.benchmarks.series({ filters: filtersOf(query), step, from, to, currency });
  }
}
