import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { utcDate } from '#app/domain';
import { KeyAccess } from '../auth/api-key.guard.js';
import { ApiQueryOf, declaredQuery } from '../http/query-declaration.js';
import { CalendarDate, Currency, Slugs } from '../http/query-parameters.js';
import { CreditCost } from '../metering/credit-cost.decorator.js';
import { ApiErrorResponses, ApiKeyAuth } from '../openapi/decorators.js';
import { EXAMPLES } from '../openapi/parameters.js';
import { ComparisonDto } from './compare.dto.js';
import { COMPARE_ERROR_EXAMPLES } from './compare.examples.js';
import { CompareQueries } from './compare.queries.js';

/** How many pages one comparison takes. */
const COMPARED_PAGES = { min: 2, max: 10 };

class CompareQuery {
  @Slugs(
    {
      description:
        'The pages to compare, 2 to 10, comma-separated, each once; the answer keeps their ' +
        'order. Each is read as the pricing route reads its slug: a full company slug ' +
        "(acmechat.io) or one without its domain extension (acmechat) means the company's " +
        'primary page, or its only page; a composite slug (bytewatch.enterprise) names one page',
      example: EXAMPLES.comparedSlugs,
    },
    COMPARED_PAGES,
  )
  slugs!: string[];

  @CalendarDate({
    description:
      'YYYYMMDD: the extraction of each page in force that day (the latest on or before it); ' +
      'default today (UTC)',
    example: EXAMPLES.laterVersion,
  })
  as_of?: string;

  @Currency({
    example: 'EUR',
    description:
      'Convert into this currency (three letters, any case), charge by charge at the exchange ' +
      "rate of the latest date on or before the extraction's version: entry_price, each " +
      "plan's lowest_monthly_equivalent, and each charge's converted (null without a rate)",
  })
  currency?: string;
}

@Controller('api/compare')
@KeyAccess({ scope: 'read', feature: 'pricing' })
@ApiTags('Pricing analytics')
@ApiKeyAuth()
@CreditCost(1)
export class CompareController {
  constructor(private readonly comparisons: CompareQueries) {}

  @Get()
  @ApiOperation({
    operationId: 'comparePricing',
    summary: 'Several pages side by side: their plans and entry prices at one date',
    description:
      'For each page, in the order asked: the latest extraction on or before as_of (version ' +
      'null, entry_price null and no plans before the first), its entry price (the lowest ' +
      'monthly equivalent above 0 among the charges of its plans that are not add-ons) and its ' +
      'plans, each with the lowest monthly equivalent of its charges. 1 credit whatever the ' +
      'number of pages.',
  })
  @ApiQueryOf(CompareQuery)
  @ApiOkResponse({ type: ComparisonDto, description: 'The pages, in the order of slugs' })
  @ApiErrorResponses('coded', [400, 401, 403, 404, 500], COMPARE_ERROR_EXAMPLES.compare)
  compare(@Query(declaredQuery) query: CompareQuery) {
    return this.comparisons.compare(
      query.slugs,
      query.as_of ?? utcDate(new Date()),
      query.currency,
    );
  }
}
