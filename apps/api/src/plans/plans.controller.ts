import { Controller, Get, Header, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BILLING_VALUES, CATEGORIES, declaredLimit, PricingRecord } from '#app/domain';
import type { PlanSearchFilters } from '#app/persistence';
import { JSON_CONTENT_TYPE, ServedAheadOfNest } from '../http/read-lane.js';
import { KeyAccess } from '../auth/api-key.guard.js';
import { ApiQueryOf, declaredQuery } from '../http/query-declaration.js';
import {
  Amount,
  Categories,
  Companies,
  Currencies,
  Currency,
  EmployeeBands,
  Flag,
  Identifiers,
  Integer,
  PageLimit,
  PageNumber,
  Sort,
  type SortOrder,
} from '../http/query-parameters.js';
import { CreditCost } from '../metering/credit-cost.decorator.js';
import { ApiErrorResponses, ApiKeyAuth } from '../openapi/decorators.js';
import { EXAMPLES } from '../openapi/parameters.js';
import { PlanSearchDto } from './plans.dto.js';
import { PLANS_ERROR_EXAMPLES } from './plans.examples.js';
import { PlansQueries } from './plans.queries.js';

const SORT_FIELDS = ['company', 'monthly'] as const;
/** A page has at most this many plans (a pricing record's bound). */
const MAX_PLANS = declaredLimit(PricingRecord, 'plans', 'maxItems');
/** A filter that takes a comma list, described alike. */
const listed = (description: string) => `${description}. A comma list: any of its values matches.`;

/** A plan search: its filters, order and page (`example` only where Dredd may send it). */
class PlanSearchQuery {
  @Categories({
    description: listed(`Categories of the company, in any case: ${CATEGORIES.join(', ')}`),
    example: 'communication',
  })
  category?: string[];

  @EmployeeBands({
    description: listed('Exact size bands of the company, N+ or N-M (encode + as %2B)'),
  })
  employees?: string[];

  @Companies({ description: listed('Full company slugs'), example: EXAMPLES.companySlug })
  company?: string[];

  @Identifiers({
    description: listed('The plan has a discount of this category, such as annual'),
  })
  discount_category?: string[];

  @Flag({ description: 'true: add-on plans only; false: the others' })
  add_on?: boolean;

  @Flag({
    description: 'true: plans with a charge billed freemium or priced 0; false: plans without one',
  })
  free_tier?: boolean;

  @Identifiers({
    description: listed(`Billing of a charge, such as ${BILLING_VALUES.slice(0, 3).join(', ')}`),
    example: 'monthly_recurring_billed_monthly',
  })
  billing?: string[];

  @Identifiers({ description: listed('charge_type of a charge, such as per_unit or flat') })
  charge_type?: string[];

  @Identifiers({ description: listed("Modality of a charge's pricing metric, such as user_based") })
  modality?: string[];

  @Identifiers({ description: listed('usage_type of a charge, such as licensed') })
  usage_type?: string[];

  @Currencies({ description: listed("A charge's own currency (ISO 4217, any case), such as USD") })
  price_currency?: string[];

  @Amount(
    {
      description:
        "A charge's monthly equivalent is at least this (in currency when given, else in the " +
        "charge's own currency; compared before rounding), such as 10",
    },
    { atMost: 'max_monthly' },
  )
  min_monthly?: number;

  @Amount({
    description: "A charge's monthly equivalent is at most this, as min_monthly, such as 50",
  })
  max_monthly?: number;

  @Integer(
    { minimum: 0, maximum: MAX_PLANS, description: 'The page has at least this many plans' },
    { atMost: 'max_plans' },
  )
  min_plans?: number;

  @Integer({ minimum: 0, maximum: MAX_PLANS, description: 'The page has at most this many plans' })
  max_plans?: number;

  @Currency({
    description:
      'Convert into this currency (three letters, any case), such as EUR, each charge at the ' +
      'rate of the latest date on or before its version: min_monthly, max_monthly and the ' +
      'monthly sort compare converted figures, and each charge carries converted (null ' +
      'without a rate)',
  })
  currency?: string;

  @Sort(SORT_FIELDS, {
    default: 'company',
    description:
      "company (the company's name), monthly (the plan's lowest monthly equivalent), either " +
      'as -field or field:desc for descending',
    example: '-monthly',
  })
  sort!: SortOrder<(typeof SORT_FIELDS)[number]>;

  @PageLimit('Plans')
  limit!: number;

  @PageNumber()
  page!: number;
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
  @ApiQueryOf(PlanSearchQuery)
  @ApiOkResponse({ type: PlanSearchDto, description: 'One page of matching plans' })
  @ApiErrorResponses('coded', [400, 401, 403, 500], PLANS_ERROR_EXAMPLES.search)
  search(@Query(declaredQuery) query: PlanSearchQuery): Promise<string> {
    const filters: PlanSearchFilters = {
      categories: query.category,
      employees: query.employees,
      companies: query.company,
      discountCategories: query.discount_category,
      addOn: query.add_on,
      freeTier: query.free_tier,
      minPlans: query.min_plans,
      maxPlans: query.max_plans,
      billing: query.billing,
      chargeTypes: query.charge_type,
      modalities: query.modality,
      usageTypes: query.usage_type,
      priceCurrencies: query.price_currency,
      minMonthly: query.min_monthly,
      maxMonthly: query.max_monthly,
      currency: query.currency,
    };
    return this.plans.search(filters, query.sort, query.page, query.limit);
  }
}
