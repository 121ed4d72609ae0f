import { Injectable } from '@nestjs/common';
import {
  entryPrices,
  percentileRank,
  roundMoney,
  summarise,
  type ConversionTarget,
  type EntryPriceFilter,
  type PricingDocument,
} from '#app/domain';
import { PricingSnapshotReader, type PageSelection } from '#app/persistence';
import { SlugResolver } from '../catalogue/slug-resolver.js';
import { ConversionTargets } from '../currency/conversion-targets.js';

/** What a benchmark is asked: the sample's pages, the charges that count, the date, the currency. */
interface BenchmarkQuestion {
  selection: Pick<PageSelection, 'categories' | 'employees'>;
  filter: EntryPriceFilter;
  asOf: string;
  currency?: string;
  company?: string;
}

/** An extraction in force at the date asked, parsed. */
interface Extraction {
  slug: string;
  version: string;
  document: PricingDocument;
}

/** One page's entry price in one currency. */
interface PageEntry {
  version: string;
  currency: string;
  price: number;
}

/** One of the company's pages as the answer ranks it (BenchmarkPageDto). */
interface RankedPage {
  slug: string;
  version: string | null;
  entry_price: number | null;
  currency: string | null;
  percentile: number | null;
}

const rounded = (figure: number | null) => (figure === null ? null : roundMoney(figure));

/** GET /v1/api/benchmarks: entry-price quartiles over a sample of pages, and a company's rank. */
@Injectable()
export class BenchmarksQueries {
  constructor(
    private readonly snapshots: PricingSnapshotReader,
    private readonly slugs: SlugResolver,
    private readonly conversions: ConversionTargets,
  ) {}

  async benchmark(question: BenchmarkQuestion) {
    const { filter, asOf, currency } = question;
    // The company is looked up first: an unknown one is a 404 before any sample is read.
    const company = question.company ? await this.companyPages(question.company) : undefined;
    const sample = await this.inForce(asOf, question.selection);
    const companyExtractions = company
      ? await this.inForce(asOf, { companySlugs: [company.slug] })
      : [];
    const target =
      currency === undefined
        ? undefined
        : await this.conversions.forDocuments(
            currency,
            [...sample, ...companyExtractions].map((extraction) => extraction.document),
          );

    const samples = new Map<string, number[]>();
    if (target) samples.set(target.currency, []);
    let unconverted = 0;
    for (const extraction of sample) {
      const priced = entriesOf(extraction, filter, target);
      if (priced.unconverted) unconverted++;
      for (const entry of priced.entries) {
        const list = samples.get(entry.currency);
        if (list) list.push(entry.price);
        else samples.set(entry.currency, [entry.price]);
      }
    }
    const groups = [...samples.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([groupCurrency, prices]) => {
        const summary = summarise(prices);
        return {
          currency: groupCurrency,
          sample_size: summary.sample_size,
          min: rounded(summary.min),
          p25: rounded(summary.p25),
          median: rounded(summary.median),
          p75: rounded(summary.p75),
          max: rounded(summary.max),
        };
      });
    return {
      as_of: asOf,
      currency: target?.currency ?? null,
      groups,
      ...(target ? { unconverted } : {}),
      ...(company
        ? {
            company: {
              slug: company.slug,
              pages: ranks(company.pages, companyExtractions, filter, target, samples),
            },
          }
        : {}),
    };
  }

  private async inForce(asOf: string, selection: PageSelection): Promise<Extraction[]> {
    const rows = await this.snapshots.inForceOn(asOf, selection);
    return rows.map((row) => ({
      slug: row.composite_slug,
      version: row.version,
      document: JSON.parse(row.document) as PricingDocument,
    }));
  }

  /** The company's full slug and its pages' composite slugs, or the 404 of an unknown slug. */
  private async companyPages(slug: string) {
    const target = await this.slugs.resolve(slug);
    if (!target) throw await this.slugs.unknownSlugWithSuggestion(slug, 'company');
    const pages = target.kind === 'page' ? [target.page] : target.pages;
    return { slug: target.company.slug, pages: pages.map((page) => page.compositeSlug) };
  }
}

function entriesOf(
  extraction: Extraction,
  filter: EntryPriceFilter,
  target: ConversionTarget | undefined,
): { entries: PageEntry[]; unconverted: boolean } {
  const prices = entryPrices(extraction.document, filter, target);
  const entries = [...prices.byCurrency.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, price]) => ({ version: extraction.version, currency, price }));
  return { entries, unconverted: prices.unconverted };
}

/**
 * Each of the company's pages with its entry price (one item per currency it prices in
 * without a target) and its percentile rank in the sample of that currency.
 */
function ranks(
  pages: string[],
  extractions: Extraction[],
  filter: EntryPriceFilter,
  target: ConversionTarget | undefined,
  samples: Map<string, number[]>,
): RankedPage[] {
  const bySlug = new Map(extractions.map((extraction) => [extraction.slug, extraction]));
  return pages.flatMap((slug): RankedPage[] => {
    const extraction = bySlug.get(slug);
    const { entries } = extraction ? entriesOf(extraction, filter, target) : { entries: [] };
    if (entries.length === 0) {
      return [
        {
          slug,
          version: extraction?.version ?? null,
          entry_price: null,
          currency: target?.currency ?? null,
          percentile: null,
        },
      ];
    }
    return entries.map((entry) => ({
      slug,
      version: entry.version,
      entry_price: roundMoney(entry.price),
      currency: entry.currency,
      percentile: percentileRank(samples.get(entry.currency) ?? [], entry.price),
    }));
  });
}
