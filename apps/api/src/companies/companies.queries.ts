import { Injectable } from '@nestjs/common';
import { CATEGORIES } from '#app/domain';
import {
  CompanyReader,
  PageReader,
  type CompanyEntity,
  type CompanyFilters,
  type CompanyOrder,
} from '#app/persistence';
import { SlugResolver } from '../catalogue/slug-resolver.js';
import { pageReference } from '../pages/page-reference.js';

/** The read model a companies list is made from. */
export const COMPANY_LIST_READ_MODELS = ['companies'];

/** The reads of the companies and categories routes, shaped as the interface returns them. */
@Injectable()
export class CompaniesQueries {
  constructor(
    private readonly companies: CompanyReader,
    private readonly pages: PageReader,
    private readonly slugs: SlugResolver,
  ) {}

  /** Page `page` (from 1) of `limit` companies matching `filters` in `order`, and its pagination. */
  async list(filters: CompanyFilters, order: CompanyOrder, page: number, limit: number) {
    const [rows, total] = await Promise.all([
      this.companies.page({ ...filters, ...order, limit, offset: (page - 1) * limit }),
      this.companies.count(filters),
    ]);
    return {
      data: rows.map(companySummary),
      pagination: { total, page, limit, has_more: page * limit < total },
    };
  }

  /** The company a slug names, with its pages when asked; 404 with a suggestion when none. */
  async one(slug: string, includePages: boolean) {
    const company = await this.slugs.company(slug);
    if (!company) throw await this.slugs.unknownSlugWithSuggestion(slug, 'company');
    if (!includePages) return companyDetail(company);
    const pages = await this.pages.listByCompany(company.slug);
    return {
      ...companyDetail(company),
      pages: pages.map((page) => pageReference(page, company.name)),
    };
  }

  /** Every category in its fixed order with its number of companies, and their sum. */
  async categories() {
    const counts = await this.companies.countByCategory();
    const categories = CATEGORIES.map((category) => ({
      category,
      companies: counts.get(category) ?? 0,
    }));
    return {
      categories,
      total_companies: categories.reduce((sum, one) => sum + one.companies, 0),
    };
  }
}

/** A company as the list returns it (CompanyDto); entities never leave the API. */
function companySummary(company: CompanyEntity) {
  return {
    id: company.id,
    name: company.name,
    slug: company.slug,
    category: company.category,
    employees: company.employees,
    url: company.url,
    created_at: company.createdAt,
  };
}

/** One company as its own route returns it (CompanyDetailDto). */
function companyDetail(company: CompanyEntity) {
  return { ...companySummary(company), updated_at: company.updatedAt };
}
