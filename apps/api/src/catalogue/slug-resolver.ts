import { Injectable } from '@nestjs/common';
import { COMPANY_SLUG } from '#app/domain';
import {
  CompanyReader,
  PageReader,
  type CompanyEntity,
  type PricingPageEntity,
} from '#app/persistence';
import { closest, distance } from 'fastest-levenshtein';
import { ApiError } from '../errors/api-error.js';

/** What a `{slug}` path segment names: a whole company, or one of its pages. */
export type SlugTarget =
  | { kind: 'company'; company: CompanyEntity; pages: PricingPageEntity[] }
  | { kind: 'page'; company: CompanyEntity; page: PricingPageEntity };

/**
 * Reads a `{slug}` as docs/API.md ("Slugs") sets out: the full company slug (`notion.so`), the
 * company slug without its extension (`notion`), or a composite page slug
 * (`notion.enterprise`). An exact company slug wins over a composite reading.
 */
@Injectable()
export class SlugResolver {
  constructor(
    private readonly companies: CompanyReader,
    private readonly pages: PageReader,
  ) {}

  /**
   * The company with exactly this slug. Every slug form (full, without extension, composite)
   * has the shape of a company slug; other text names nothing and is not sent to the database
   * (PostgreSQL refuses a NUL in a query parameter, which would be a 500).
   */
  async company(slug: string): Promise<CompanyEntity | null> {
    return COMPANY_SLUG.test(slug) ? this.companies.findBySlug(slug) : null;
  }

  /** The target, or null when nothing has that slug. */
  async resolve(slug: string): Promise<SlugTarget | null> {
    if (!COMPANY_SLUG.test(slug)) return null;
    const company = await this.companies.findBySlug(slug);
    if (company) return this.companyTarget(company);
    const [byBase] = await this.companies.findByBase(slug);
    if (byBase) return this.companyTarget(byBase);
    const page = await this.pages.findByCompositeSlug(slug);
    if (!page) return null;
    const owner = await this.companies.findBySlug(page.companySlug);
    return owner ? { kind: 'page', company: owner, page } : null;
  }

  /**
   * The one page a slug means on the pages and pricing endpoints: the page itself, or the
   * company's primary page, or its only page; 400 PAGE_REQUIRED when that is ambiguous.
   */
  singlePage(target: SlugTarget): PricingPageEntity | null {
    if (target.kind === 'page') return target.page;
    const primary = target.pages.find((page) => page.pageSlug === '');
    if (primary) return primary;
    if (target.pages.length <= 1) return target.pages[0] ?? null;
    throw new ApiError(
      400,
      'PAGE_REQUIRED',
      `${target.company.slug} has several pricing pages and no primary one: name one`,
      { pages: target.pages.map((page) => page.compositeSlug) },
    );
  }

  /** The one page a slug means on the pages and pricing endpoints (see singlePage), or null. */
  async resolvePage(
    slug: string,
  ): Promise<{ company: CompanyEntity; page: PricingPageEntity } | null> {
    const target = await this.resolve(slug);
    const page = target ? this.singlePage(target) : null;
    return target && page ? { company: target.company, page } : null;
  }

  /** 404 for files and pricing (`{error, code, details}`): the slug and a message. */
  unknownSlug(slug: string, what: string): ApiError {
    const message = `No ${what} with slug ${slug}`;
    return new ApiError(404, 'NOT_FOUND', message, { slug, message });
  }

  /** 404 for the general shape: the slug and the closest existing one, or a hint to search. */
  async unknownSlugWithSuggestion(slug: string, what: string): Promise<ApiError> {
    const suggestion = await this.suggestion(slug);
    return new ApiError(404, 'NOT_FOUND', `No ${what} with slug ${slug}`, {
      slug,
      suggestion:
        suggestion ?? `Search for it: GET /v1/api/companies?search=${encodeURIComponent(slug)}`,
    });
  }

  /** The closest existing company slug, when one is close enough to be a likely typo. */
  private async suggestion(slug: string): Promise<string | null> {
    if (!COMPANY_SLUG.test(slug)) return null;
    const candidates = await this.companies.slugsLike(slug);
    if (candidates.length === 0) return null;
    const best = closest(slug, candidates);
    return distance(slug, best) <= Math.max(2, Math.floor(slug.length / 4)) ? best : null;
  }

  private async companyTarget(company: CompanyEntity): Promise<SlugTarget> {
    return { kind: 'company', company, pages: await this.pages.listByCompany(company.slug) };
  }
}
