import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CATEGORIES } from '#app/domain';
import type { CompanyFilters, CompanySortField } from '#app/persistence';
import type { FastifyRequest } from 'fastify';
import { KeyAccess } from '../auth/api-key.guard.js';
import { ApiError } from '../errors/api-error.js';
import { ServedAheadOfNest } from '../http/read-lane.js';
import { ApiQueryOf, declaredQuery, QueryParameter } from '../http/query-declaration.js';
import {
  Category,
  Employees,
  optionalText,
  PageLimit,
  PageNumber,
  Sort,
  type SortOrder,
  Text,
} from '../http/query-parameters.js';
import { CreditCost } from '../metering/credit-cost.decorator.js';
import { ApiErrorResponses, ApiKeyAuth } from '../openapi/decorators.js';
import { COMPANY_SLUG_PARAMETER } from '../openapi/parameters.js';
import { SORT_FIELDS } from '../openapi/patterns.js';
import { COMPANY_LIST_READ_MODELS, CompaniesQueries } from './companies.queries.js';
import { CompanyDetailDto, CompanyListDto } from './companies.dto.js';
import { COMPANIES_ERROR_EXAMPLES } from './companies.examples.js';

class CompanyListQuery {
  @Text({
    description: 'Case-insensitive substring of the name or the slug',
    maxLength: 200,
    example: 'chat',
  })
  search?: string;

  @Category({
    description: `One of the eight categories, in any case: ${CATEGORIES.join(', ')}`,
    example: 'communication',
  })
  category?: string;

  @Employees({ description: 'An exact size band, N+ or N-M; encode + as %2B', example: '51-200' })
  employees?: string;

  @PageLimit('Companies')
  limit!: number;

  @PageNumber()
  page!: number;

  @Sort(SORT_FIELDS, {
    default: 'name:asc',
    description:
      `field, -field, field:asc or field:desc with field one of ${SORT_FIELDS.join(', ')}. ` +
      'employees sorts bands by their lower bound.',
    example: '-employees',
  })
  sort!: SortOrder<CompanySortField>;
}

class CompanyQuery {
  /** Whether to add the company's pages: `include=pages`. */
  @QueryParameter(
    {
      schema: { type: 'string', enum: ['pages'], example: 'pages' },
      description: 'pages: add the pricing page references of the company',
    },
    (name, value) => {
      const included = optionalText(name, value) !== undefined;
      if (included && value !== 'pages') {
        throw new ApiError(400, 'INVALID_PARAMETER', 'include accepts only "pages"', {
          parameter: name,
          provided: value,
          expected: 'pages',
        });
      }
      return included;
    },
  )
  include!: boolean;
}

@Controller('api/companies')
@KeyAccess({ scope: 'read', feature: 'companies' })
@ApiTags('Companies')
@ApiKeyAuth()
@CreditCost(1)
export class CompaniesController {
  constructor(private readonly companies: CompaniesQueries) {}

  @Get()
  // The page and its total come from the companies read model alone.
  @ServedAheadOfNest(COMPANY_LIST_READ_MODELS)
  @ApiOperation({
    operationId: 'listCompanies',
    summary: 'List companies',
    description:
      'Filters combine (all must match). Sorted by name unless `sort` says otherwise; ties are ' +
      'broken by id. The list items carry no updated_at.',
  })
  @ApiQueryOf(CompanyListQuery)
  @ApiOkResponse({ type: CompanyListDto, description: 'One page of matching companies' })
  @ApiErrorResponses('general', [400, 401, 403, 500], COMPANIES_ERROR_EXAMPLES.list)
  async list(@Query(declaredQuery) query: CompanyListQuery, @Req() request: FastifyRequest) {
    const { search, category, employees, sort, page, limit } = query;
    const filters: CompanyFilters = { search, category, employees };
    return this.companies.list(filters, sort, page, limit, request.laneStamp);
  }

  @Get(':slug')
  @ServedAheadOfNest(['companies', 'pages'])
  @ApiOperation({
    operationId: 'getCompany',
    summary: 'One company by slug',
    description: 'The company with updated_at, and with its pricing pages when include=pages.',
  })
  @ApiParam(COMPANY_SLUG_PARAMETER)
  @ApiQueryOf(CompanyQuery)
  @ApiOkResponse({ type: CompanyDetailDto, description: 'The company' })
  @ApiErrorResponses('general', [400, 401, 403, 404, 500], COMPANIES_ERROR_EXAMPLES.one)
  async one(@Param('slug') slug: string, @Query(declaredQuery) { include }: CompanyQuery) {
    return this.companies.one(slug, include);
  }
}
