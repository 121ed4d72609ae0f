import { Injectable } from '@nestjs/common';
import {
  entryPrices,
  lowestMonthlyEquivalent,
  pricePlan,
  roundMoney,
  seriesPlan,
  type ConversionTarget,
  type PricingDocument,
} from '#app/domain';
import {
  PricingSnapshotReader,
  type CompanyEntity,
  type PricingPageEntity,
} from '#app/persistence';
import { SlugResolver } from '../catalogue/slug-resolver.js';
import { ConversionTargets } from '../currency/conversion-targets.js';
import { ApiError } from '../errors/api-error.js';

/** A slug asked for, and the page it names with that page's company. */
interface ComparedPage {
  company: CompanyEntity;
  page: PricingPageEntity;
}

const rounded = (figure: number | null) => (figure === null ? null : roundMoney(figure));

/**
 * GET /v1/api/compare: a few pages side by side at one date. It reads each slug's page (as the
 * pricing route does) and then, in one query, the extraction of each in force at that date.
 */
@Injectable()
export class CompareQueries {
  constructor(
    private readonly snapshots: PricingSnapshotReader,
    private readonly slugs: SlugResolver,
    private readonly conversions: ConversionTargets,
  ) {}

  async compare(slugs: string[], asOf: string, currency?: string) {
    const compared = await this.pagesOf(slugs);
    const extractions = await this.snapshots.inForceOn(asOf, {
      pageIds: compared.map(({ page }) => page.id),
    });
    const documents = new Map(
      extractions.map((row) => [row.composite_slug, JSON.parse(row.document) as PricingDocument]),
    );
    const target =
      currency === undefined
        ? undefined
        : await this.conversions.forDocuments(currency, documents.values());
    return {
      as_of: asOf,
      currency: target?.currency ?? null,
      pages: compared.map(({ company, page }) => {
        const document = documents.get(page.compositeSlug);
        return {
          slug: page.compositeSlug,
          company_slug: company.slug,
          company_name: company.name,
          category: company.category,
          ...(document
            ? pricingOf(document, target)
            : { version: null, entry_price: null, plans: [] }),
        };
      }),
    };
  }

  /**
   * The page each slug names, in the order asked: the first slug that names none is the 404, a
   * company with several pages and no primary one the 400 PAGE_REQUIRED, and a page named twice
   * (by the same slug or two forms of it) the 400 of the parameter.
   */
  private async pagesOf(slugs: string[]): Promise<ComparedPage[]> {
    const targets = await Promise.all(slugs.map((slug) => this.slugs.resolve(slug)));
    const named = new Map<string, string>();
    return slugs.map((slug, index) => {
      const target = targets[index];
      const page = target ? this.slugs.singlePage(target) : null;
      if (!target || !page) throw this.slugs.unknownSlug(slug, 'pricing page');
      const earlier = named.get(page.id);
      if (earlier !== undefined) {
        throw new ApiError(
          400,
          'INVALID_PARAMETER',
          `slugs names the page ${page.compositeSlug} twice (${earlier} and ${slug}): compare different pages`,
          {
            parameter: 'slugs',
            provided: slug,
            page: page.compositeSlug,
            expected: 'each page once',
          },
        );
      }
      named.set(page.id, slug);
      return { company: target.company, page };
    });
  }
}

/**
 * What a compared page shows of its extraction: its version, its entry price (a single figure:
 * without a target, a page whose entry prices are in two currencies has none) and its plans as a
 * series point gives them, each with the lowest monthly equivalent of its charges.
 */
function pricingOf(document: PricingDocument, target: ConversionTarget | undefined) {
  const entry = [...entryPrices(document, {}, target).byCurrency.values()];
  return {
    version: document.version,
    entry_price: entry.length === 1 ? roundMoney(entry[0]!) : null,
    plans: document.plans.map((plan) => ({
      ...seriesPlan(pricePlan(plan, document.version, target).plan),
      lowest_monthly_equivalent: rounded(lowestMonthlyEquivalent(plan, document.version, target)),
    })),
  };
}
