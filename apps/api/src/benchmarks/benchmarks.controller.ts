import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CATEGORIES, utcDate } from '#app/domain';
import { KeyAccess } from '../auth/api-key.guard.js';
import { calendarDateOrThrow } from '../http/period-parameter.js';
import {
  categoriesParameter,
  currencyParameter,
  employeeBandsParameter,
  listParameter,
  optionalText,
  type QueryValue,
} from '../http/query-parameters.js';
import { CreditCost } from '../metering/credit-cost.decorator.js';
import { ApiErrorResponses, ApiKeyAuth } from '../openapi/decorators.js';
import { CURRENCY_PARAMETER, EXAMPLES } from '../openapi/parameters.js';
import { PATTERNS } from '../openapi/patterns.js';
import { BenchmarkDto } from './benchmarks.dto.js';
import { BENCHMARKS_ERROR_EXAMPLES } from './benchmarks.examples.js';
import { BenchmarksQueries } from './benchmarks.queries.js';

const asSet = (items: string[] | undefined) => (items ? new Set(items) : undefined);

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
  @ApiQuery({
    name: 'category',
    required: false,
    type: String,
    description: `Categories of the pages' companies, comma-separated, any case: ${CATEGORIES.join(', ')}`,
    example: 'communication',
  })
  @ApiQuery({
    name: 'employees',
    required: false,
    type: String,
    description: "Size bands of the pages' companies, comma-separated (encode + as %2B)",
    example: '51-200',
  })
  @ApiQuery({
    name: 'billing',
    required: false,
    type: String,
    description: 'Count only charges of these billings, comma-separated',
    example: 'monthly_recurring_billed_monthly',
  })
  @ApiQuery({
    name: 'modality',
    required: false,
    type: String,
    description:
      'Count only charges whose pricing metric has one of these modalities, comma-separated',
    example: 'user_based',
  })
  @ApiQuery({
    ...CURRENCY_PARAMETER,
    example: 'USD',
    description:
      'Convert every charge into this currency (three letters, any case) before the lowest is ' +
      'taken: one group, and unconverted counts the pages left out for want of a rate',
  })
  @ApiQuery({
    name: 'as_of',
    required: false,
    type: String,
    pattern: PATTERNS.version,
    description: 'YYYYMMDD: the extractions in force that day; default today (UTC)',
    example: EXAMPLES.laterVersion,
  })
  @ApiQuery({
    name: 'company',
    required: false,
    type: String,
    description: "A company slug: each of its pages' entry price and percentile rank",
    example: EXAMPLES.companySlug,
  })
  @ApiOkResponse({ type: BenchmarkDto, description: 'The groups, and the company when asked' })
  @ApiErrorResponses('coded', [400, 401, 403, 404, 500], BENCHMARKS_ERROR_EXAMPLES.benchmark)
  benchmark(
    @Query('category') categoryValue: QueryValue,
    @Query('employees') employeesValue: QueryValue,
    @Query('billing') billingValue: QueryValue,
    @Query('modality') modalityValue: QueryValue,
    @Query('currency') currencyValue: QueryValue,
    @Query('as_of') asOfValue: QueryValue,
    @Query('company') companyValue: QueryValue,
  ) {
    const asOf = optionalText('as_of', asOfValue, 20);
    return this.benchmarks.benchmark({
      selection: {
        categories: categoriesParameter(categoryValue),
        employees: employeeBandsParameter(employeesValue),
      },
      filter: {
        billing: asSet(listParameter('billing', billingValue)),
        modality: asSet(listParameter('modality', modalityValue)),
      },
      currency: currencyParameter(currencyValue),
      asOf: asOf === undefined ? utcDate(new Date()) : calendarDateOrThrow('as_of', asOf),
      company: optionalText('company', companyValue, 255),
    });
  }
}
