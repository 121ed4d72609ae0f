import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CATEGORIES } from '#app/domain';
import type { CompanyFilters } from '#app/persistence';
import type { FastifyRequest } from 'fastify';
import { KeyAccess } from '../auth/api-key.guard.js';
import { ApiError } from '../errors/api-error.js';
import { ServedAheadOfNest } from '../http/read-lane.js';
import {
  categoryParameter,
  employeesParameter,
  pageParameters,
  optionalText,
  sortParameter,
  type QueryValue,
} from '../http/query-parameters.js';
import { CreditCost } from '../metering/credit-cost.decorator.js';
import { ApiErrorResponses, ApiKeyAuth } from '../openapi/decorators.js';
import { COMPANY_SLUG_PARAMETER, limitQuery, PAGE_NUMBER_QUERY } from '../openapi/parameters.js';
import { PATTERNS, SORT_FIELDS, SORT_PATTERN } from '../openapi/patterns.js';
import { COMPANY_LIST_READ_MODELS, CompaniesQueries } from './companies.queries.js';
import { CompanyDetailDto, CompanyListDto } from './companies.dto.js';
import { COMPANIES_ERROR_EXAMPLES } from './companies.examples.js';

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
  @ApiQuery({
    name: 'search',
    required: false,
    type: String,
    maxLength: 200,
    description: 'Case-insensitive substring of the name or the slug',
    example: 'chat',
  })
  // Not an enum: the service takes any case, and a client generated from an enum would refuse
  // `communication`.
  @ApiQuery({
    name: 'category',
    required: false,
    type: String,
    description: `One of the eight categories, in any case: ${CATEGORIES.join(', ')}`,
    example: 'communication',
  })
  @ApiQuery({
    name: 'employees',
    required: false,
    type: String,
    pattern: PATTERNS.employees,
    description: 'An exact size band, N+ or N-M; encode + as %2B',
    example: '51-200',
  })
  @ApiQuery(limitQuery('Companies'))
  @ApiQuery(PAGE_NUMBER_QUERY)
  @ApiQuery({
    name: 'sort',
    required: false,
    type: String,
    pattern: SORT_PATTERN,
    default: 'name:asc',
    description:
      `field, -field, field:asc or field:desc with field one of ${SORT_FIELDS.join(', ')}. ` +
      'employees sorts bands by their lower bound.',
    example: '-employees',
  })
  @ApiOkResponse({ type: CompanyListDto, description: 'One page of matching companies' })
  @ApiErrorResponses('general', [400, 401, 403, 500], COMPANIES_ERROR_EXAMPLES.list)
  async list(@Query() query: Record<string, QueryValue>, @Req() request: FastifyRequest) {
    const { limit, page } = pageParameters(query);
    const filters: CompanyFilters = {
      search: optionalText('search', query.search),
      category: categoryParameter(query.category),
      employees: employeesParameter(query.employees),
    };
    return this.companies.list(
      filters,
      sortParameter(query.sort, SORT_FIELDS, 'name'),
      page,
      limit,
      request.laneStamp,
    );
  }

  @Get(':slug')
  @ServedAheadOfNest(['companies', 'pages'])
  @ApiOperation({
    operationId: 'getCompany',
    summary: 'One company by slug',
    description: 'The company with updated_at, and with its pricing pages when include=pages.',
  })
  @ApiParam(COMPANY_SLUG_PARAMETER)
  @ApiQuery({
    name: 'include',
    required: false,
    // A schema of its own: Nest drops the example of an `enum:` parameter.
    schema: { type: 'string', enum: ['pages'], example: 'pages' },
    description: 'pages: add the pricing page references of the company',
  })
  @ApiOkResponse({ type: CompanyDetailDto, description: 'The company' })
  @ApiErrorResponses('general', [400, 401, 403, 404, 500], COMPANIES_ERROR_EXAMPLES.one)
  async one(@Param('slug') slug: string, @Query('include') include: QueryValue) {
    const includePages = optionalText('include', include) !== undefined;
    if (includePages && include !== 'pages') {
      throw new ApiError(400, 'INVALID_PARAMETER', 'include accepts only "pages"', {
        parameter: 'include',
        provided: include,
        expected: 'pages',
      });
    }
    return this.companies.one(slug, includePages);
  }
}
