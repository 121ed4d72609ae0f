import { Controller, Get, Header, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { BILLING_VALUES, CATEGORIES, RECORD_FIELDS } from '#app/domain';
import type { PlanSearchFilters } from '#app/persistence';
import { JSON_CONTENT_TYPE, ServedAheadOfNest } from '../http/read-lane.js';
import { KeyAccess } from '../auth/api-key.guard.js';
import { ApiError } from '../errors/api-error.js';
import {
  amountParameter,
  booleanParameter,
  categoriesParameter,
  companiesParameter,
  currenciesParameter,
  currencyParameter,
  employeeBandsParameter,
  identifiersParameter,
  pageParameters,
  optionalIntegerParameter,
  sortParameter,
  type QueryValue,
} from '../http/query-parameters.js';
import { CreditCost } from '../metering/credit-cost.decorator.js';
import { ApiErrorResponses, ApiKeyAuth } from '../openapi/decorators.js';
import {
  CURRENCY_PARAMETER,
  EXAMPLES,
  limitQuery,
  PAGE_NUMBER_QUERY,
} from '../openapi/parameters.js';
import { PlanSearchDto } from './plans.dto.js';
import { PLANS_ERROR_EXAMPLES } from './plans.examples.js';
import { PlansQueries } from './plans.queries.js';

const SORT_FIELDS = ['company', 'monthly'] as const;
/** A page has at most this many plans (a pricing record's bound). */
const MAX_PLANS = RECORD_FIELDS.pricing.plans.maxItems;
const LIST = 'A comma list: any of its values matches.';

/** A filter that takes a comma list, documented alike; `example` only where Dredd may send it. */
function ListQuery(name: string, description: string, example?: string): MethodDecorator {
  return ApiQuery({
    name,
    required: false,
    type: String,
    description: `${description}. ${LIST}`,
    ...(example === undefined ? {} : { example }),
  });
}

function FlagQuery(name: string, description: string): MethodDecorator {
  return ApiQuery({
    name,
    required: false,
    schema: { type: 'string', enum: ['true', 'false'] },
    description,
  });
}

/** 400 INVALID_RANGE when both bounds are given and the lower is above the upper. */
function checkRange(
  low: { name: string; text: QueryValue; value: number | undefined },
  high: { name: string; value: number | undefined },
): void {
  if (low.value === undefined || high.value === undefined || low.value <= high.value) return;
  throw new ApiError(400, 'INVALID_RANGE', `${low.name} is above ${high.name}`, {
    parameter: low.name,
    provided: low.text,
    expected: `at most ${high.name} (${high.value})`,
  });
}

/**
 * The read models a plan search comes from: the lane sends a kept answer again while neither
 * has moved (the rates matter only with currency=; watching them always is simpler and never
 * stale).
 */
const PLAN_SEARCH_READ_MODELS = ['plan-search', 'exchange-rates'];

/** Plans of every page's latest extraction, across all companies, filtered and sorted. */
@Controller('api/plans')
@KeyAccess({ scope: 'read', feature: 'pricing' })
@ApiTags('Pricing')
@ApiKeyAuth()
@CreditCost(1)
export class PlansController {
  constructor(private readonly plans: PlansQueries) {}

  @Get()
  @ServedAheadOfNest(PLAN_SEARCH_READ_MODELS)
  @Header('content-type', JSON_CONTENT_TYPE)
  @ApiOperation({
    operationId: 'searchPlans',
    summary: 'Search the plans of every pricing page',
    description:
      "The plans of each page's latest extraction that match every filter given. Page filters " +
      '(category, employees, company) select by company; plan filters (discount_category, ' +
      'add_on, free_tier) by plan; charge filters (billing, charge_type, modality, usage_type, ' +
      'price_currency, min_monthly, max_monthly) must all hold on one and the same charge of ' +
      'the plan. A charge without a monthly equivalent (or, with currency, without a rate) ' +
      'never meets min_monthly or max_monthly. Sorted by company name (case-insensitive) unless ' +
      "sort says monthly, the plan's lowest monthly equivalent; plans without one come last in " +
      'both directions. Ties go by composite slug, then internal_name, ascending whatever the ' +
      'direction. total is exact.',
  })
  @ListQuery(
    'category',
    `Categories of the company, in any case: ${CATEGORIES.join(', ')}`,
    'communication',
  )
  @ListQuery('employees', 'Exact size bands of the company, N+ or N-M (encode + as %2B)')
  @ListQuery('company', 'Full company slugs', EXAMPLES.companySlug)
  @ListQuery('discount_category', 'The plan has a discount of this category, such as annual')
  @FlagQuery('add_on', 'true: add-on plans only; false: the others')
  @FlagQuery(
    'free_tier',
    'true: plans with a charge billed freemium or priced 0; false: plans without one',
  )
  @ListQuery(
    'billing',
    `Billing of a charge, such as ${BILLING_VALUES.slice(0, 3).join(', ')}`,
    'monthly_recurring_billed_monthly',
  )
  @ListQuery('charge_type', 'charge_type of a charge, such as per_unit or flat')
  @ListQuery('modality', "Modality of a charge's pricing metric, such as user_based")
  @ListQuery('usage_type', 'usage_type of a charge, such as licensed')
  @ListQuery('price_currency', "A charge's own currency (ISO 4217, any case), such as USD")
  @ApiQuery({
    name: 'min_monthly',
    required: false,
    type: Number,
    minimum: 0,
    description:
      "A charge's monthly equivalent is at least this (in currency when given, else in the " +
      "charge's own currency; compared before rounding), such as 10",
  })
  @ApiQuery({
    name: 'max_monthly',
    required: false,
    type: Number,
    minimum: 0,
    description: "A charge's monthly equivalent is at most this, as min_monthly, such as 50",
  })
  @ApiQuery({
    name: 'min_plans',
    required: false,
    type: 'integer',
    minimum: 0,
    maximum: MAX_PLANS,
    description: 'The page has at least this many plans',
  })
  @ApiQuery({
    name: 'max_plans',
    required: false,
    type: 'integer',
    minimum: 0,
    maximum: MAX_PLANS,
    description: 'The page has at most this many plans',
  })
  @ApiQuery({
    ...CURRENCY_PARAMETER,
    description:
      'Convert into this currency (three letters, any case), such as EUR, each charge at the ' +
      'rate of the latest date on or before its version: min_monthly, max_monthly and the ' +
      'monthly sort compare converted figures, and each charge carries converted (null ' +
      'without a rate)',
  })
  @ApiQuery({
    name: 'sort',
    required: false,
    type: String,
    pattern: '^(-?(company|monthly)|(company|monthly):(asc|desc))$',
    default: 'company',
    description:
      "company (the company's name), monthly (the plan's lowest monthly equivalent), either " +
      'as -field or field:desc for descending',
    example: '-monthly',
  })
  @ApiQuery(limitQuery('Plans'))
  @ApiQuery(PAGE_NUMBER_QUERY)
  @ApiOkResponse({ type: PlanSearchDto, description: 'One page of matching plans' })
  @ApiErrorResponses('coded', [400, 401, 403, 500], PLANS_ERROR_EXAMPLES.search)
  search(@Query() query: Record<string, QueryValue>): Promise<string> {
    const { limit, page } = pageParameters(query);
    const plans = { min: 0, max: MAX_PLANS };
    const filters: PlanSearchFilters = {
      categories: categoriesParameter(query.category),
      employees: employeeBandsParameter(query.employees),
      companies: companiesParameter(query.company),
      discountCategories: identifiersParameter('discount_category', query.discount_category),
      addOn: booleanParameter('add_on', query.add_on),
      freeTier: booleanParameter('free_tier', query.free_tier),
      minPlans: optionalIntegerParameter('min_plans', query.min_plans, plans),
      maxPlans: optionalIntegerParameter('max_plans', query.max_plans, plans),
      billing: identifiersParameter('billing', query.billing),
      chargeTypes: identifiersParameter('charge_type', query.charge_type),
      modalities: identifiersParameter('modality', query.modality),
      usageTypes: identifiersParameter('usage_type', query.usage_type),
      priceCurrencies: currenciesParameter('price_currency', query.price_currency),
      minMonthly: amountParameter('min_monthly', query.min_monthly),
      maxMonthly: amountParameter('max_monthly', query.max_monthly),
      currency: currencyParameter(query.currency),
    };
    checkRange(
      { name: 'min_plans', text: query.min_plans, value: filters.minPlans },
      { name: 'max_plans', value: filters.maxPlans },
    );
    checkRange(
      { name: 'min_monthly', text: query.min_monthly, value: filters.minMonthly },
      { name: 'max_monthly', value: filters.maxMonthly },
    );
    const order = sortParameter(query.sort, SORT_FIELDS, 'company');
    return this.plans.search(filters, order, page, limit);
  }
}
