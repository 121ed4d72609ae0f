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
import { AnswerCache } from '../http/answer-cache.js';
import { pageReference } from '../catalogue/page-reference.js';

/** The read model a companies list is made from. */
export const COMPANY_LIST_READ_MODELS = ['companies'];

/** The most matches whose ids a search keeps (about 35 KB of JSON), one read for all its pages. */
const KEPT_MATCHES = 5_000;

/** The reads of the companies and categories routes, shaped as the interface returns them. */
@Injectable()
export class CompaniesQueries {
  constructor(
    private readonly companies: CompanyReader,
    private readonly pages: PageReader,
    private readonly slugs: SlugResolver,
    private readonly answers: AnswerCache,
  ) {}

  /**
   * Page `page` (from 1) of `limit` companies matching `filters` in `order`, and its pagination,
   * read from the companies read model as `stamp` names it (the read lane's, when it admitted
   * the request).
   */
  async list(
    filters: CompanyFilters,
    order: CompanyOrder,
    page: number,
    limit: number,
    stamp: string | undefined,
  ) {
    const offset = (page - 1) * limit;
    const ids =
      stamp !== undefined && filters.search !== undefined
        ? await this.searchMatches(filters, order, stamp)
        : null;
    const [rows, total] = ids
      ? [await this.companies.byIds(ids.slice(offset, offset + limit)), ids.length]
      : await Promise.all([
          this.companies.page({ ...filters, ...order, limit, offset }),
          this.companies.count(filters),
        ]);
    return {
      data: rows.map(companySummary),
      pagination: { total, page, limit, has_more: page * limit < total },
    };
  }

  /**
   * The ids of the companies a search matches, in `order`, or null when more than KEPT_MATCHES
   * match, kept with the answers under the stamp of the state they were read from: every page
   * of a narrow search is then a primary-key read, where each would scan and count the matches
   * again.
   */
  private async searchMatches(
    filters: CompanyFilters,
    order: CompanyOrder,
    stamp: string,
  ): Promise<number[] | null> {
    const key = `companies ids ${JSON.stringify(filters)} ${JSON.stringify(order)} @${stamp}`;
    const kept = this.answers.get(key);
    if (kept) return JSON.parse(kept.body.toString()) as number[] | null;
    const ids = await this.companies.matchingIds({ ...filters, ...order }, KEPT_MATCHES);
    this.answers.keep(key, JSON.stringify(ids), null);
    return ids;
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
