import { Injectable } from '@nestjs/common';
import { CATEGORIES } from '#app/domain';
import {
  CheckpointStore,
  CompanyReader,
  PageReader,
  type CompanyEntity,
  type CompanyFilters,
  type CompanyOrder,
} from '#app/persistence';
import { SlugResolver } from '../catalogue/slug-resolver.js';
import { ImmutableReadCache } from '../http/immutable-read.cache.js';
import { pageReference } from '../pages/page-reference.js';

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
    private readonly checkpoints: CheckpointStore,
    private readonly answers: ImmutableReadCache,
  ) {}

  /** Page `page` (from 1) of `limit` companies matching `filters` in `order`, and its pagination. */
  async list(filters: CompanyFilters, order: CompanyOrder, page: number, limit: number) {
    const [rows, total] = await this.pageAndTotal(filters, order, {
      limit,
      offset: (page - 1) * limit,
    });
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

  /**
   * One page of the companies matching `filters` and how many match. A search that matches at
   * most KEPT_MATCHES keeps their ids in order, read once for each state of the companies read
   * model, so each of its pages is a primary-key read and its total the length of that list;
   * a broader one reads its page in order and counts once per state.
   */
  private async pageAndTotal(
    filters: CompanyFilters,
    order: CompanyOrder,
    window: { limit: number; offset: number },
  ): Promise<[CompanyEntity[], number]> {
    const stamp = await this.checkpoints.currentStamp(COMPANY_LIST_READ_MODELS);
    const kept = await this.answers.remember(
      `companies ids ${JSON.stringify(filters)} ${JSON.stringify(order)} @${stamp}`,
      async () => ({
        json: JSON.stringify(
          await this.companies.matchingIds({ ...filters, ...order }, KEPT_MATCHES),
        ),
        final: true,
      }),
    );
    const ids = JSON.parse(kept.body.toString()) as number[] | null;
    if (ids) {
      const cut = ids.slice(window.offset, window.offset + window.limit);
      return [await this.companies.byIds(cut), ids.length];
    }
    return Promise.all([
      this.companies.page({ ...filters, ...order, ...window }),
      this.total(filters, stamp),
    ]);
  }

  /**
   * How many companies match `filters`, counted once for each state of the companies read
   * model (every page and order of one search shares it) and kept with the answers.
   */
  private async total(filters: CompanyFilters, stamp: string): Promise<number> {
    const counted = await this.answers.remember(
      `companies total ${JSON.stringify(filters)} @${stamp}`,
      async () => ({ json: String(await this.companies.count(filters)), final: true }),
    );
    return Number(counted.body.toString());
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
