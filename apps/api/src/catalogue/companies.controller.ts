import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { CompanyReader, PageReader } from '#app/persistence';
import { ApiKeyGuard } from '../auth/api-key.guard.js';
import { ApiError } from '../errors/api-error.js';
import {
  categoryParameter,
  employeesParameter,
  integerParameter,
  optionalText,
  sortParameter,
  type QueryValue,
} from './query-parameters.js';
import { companyDetail, companySummary, pageReference } from './representations.js';
import { SlugResolver } from './slug-resolver.js';

@Controller('api/companies')
@UseGuards(ApiKeyGuard('read', 'companies'))
export class CompaniesController {
  constructor(
    private readonly companies: CompanyReader,
    private readonly pages: PageReader,
    private readonly slugs: SlugResolver,
  ) {}

  @Get()
  async list(@Query() query: Record<string, QueryValue>) {
    const limit = integerParameter('limit', query.limit, { fallback: 20, min: 1, max: 100 });
    const page = integerParameter('page', query.page, { fallback: 1, min: 1 });
    const { rows, total } = await this.companies.list({
      search: optionalText('search', query.search),
      category: categoryParameter(query.category),
      employees: employeesParameter(query.employees),
      ...sortParameter(query.sort),
      limit,
      offset: (page - 1) * limit,
    });
    return {
      data: rows.map(companySummary),
      pagination: { total, page, limit, has_more: page * limit < total },
    };
  }

  @Get(':slug')
  async one(@Param('slug') slug: string, @Query('include') include: QueryValue) {
    const includePages = optionalText('include', include) !== undefined;
    if (includePages && include !== 'pages') {
      throw new ApiError(400, 'INVALID_PARAMETER', 'include accepts only "pages"', {
        parameter: 'include',
        provided: include,
        expected: 'pages',
      });
    }
    const company = await this.companies.findBySlug(slug);
    if (!company) {
      const suggestion = await this.slugs.suggestion(slug);
      throw new ApiError(404, 'NOT_FOUND', `No company with slug ${slug}`, {
        slug,
        suggestion:
          suggestion ?? `Search for it: GET /v1/api/companies?search=${encodeURIComponent(slug)}`,
      });
    }
    if (!includePages) return companyDetail(company);
    const pages = await this.pages.listByCompany(company.slug);
    return {
      ...companyDetail(company),
      pages: pages.map((page) => pageReference(page, company.name)),
    };
  }
}
