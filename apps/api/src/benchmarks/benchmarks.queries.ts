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
import { PricingSnapshotReader, type PageExtraction, type PageSelection } from '#app/persistence';
import { SlugResolver } from '../catalogue/slug-resolver.js';

/** What a benchmark is asked: the sample's pages, the charges that count, the date, the currency. */
export interface BenchmarkQuestion {
  selection: Pick<PageSelection, 'categories' | 'employees'>;
  filter: EntryPriceFilter;
  asOf: string;
  target?: ConversionTarget;
  company?: string;
}

/** One of the company's pages as the answer ranks it (BenchmarkPageDto). */
interface RankedPage {
  slug: string;
  version: string | null;
  entry_price: number | null;
  currency: string | null;
  percentile: number | null;
}

/** One page's entry price in one currency. */
interface PageEntry {
  slug: string;
  version: string;
  currency: string;
  price: number;
}

const rounded = (figure: number | null) => (figure === null ? null : roundMoney(figure));

/** GET /v1/api/benchmarks: entry-price quartiles over a sample of pages, and a company's rank. */
@Injectable()
export class BenchmarksQueries {
  constructor(
    private readonly snapshots: PricingSnapshotReader,
    private readonly slugs: SlugResolver,
  ) {}

  async benchmark(question: BenchmarkQuestion) {
    const { filter, asOf, target } = question;
    // The company is looked up first: an unknown one is a 404 before any sample is read.
    const companyPages = question.company ? await this.companyPages(question.company) : undefined;
    const sample = await this.snapshots.inForceOn(asOf, question.selection);
    const entries: PageEntry[] = [];
    let unconverted = 0;
    for (const extraction of sample) {
      const priced = this.entriesOf(extraction, filter, target);
      entries.push(...priced.entries);
      if (priced.unconverted) unconverted++;
    }
    const samples = new Map<string, number[]>();
    if (target) samples.set(target.currency, []);
    for (const entry of entries) {
      const list = samples.get(entry.currency);
      if (list) list.push(entry.price);
      else samples.set(entry.currency, [entry.price]);
    }
    const groups = [...samples.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, prices]) => {
        const summary = summarise(prices);
        return {
          currency,
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
      ...(companyPages
        ? { company: await this.companyRanks(companyPages, question, samples) }
        : {}),
    };
  }

  /** The company's full slug and its pages' composite slugs, or the 404 of an unknown slug. */
  private async companyPages(slug: string) {
    const target = await this.slugs.resolve(slug);
    if (!target) throw await this.slugs.unknownSlugWithSuggestion(slug, 'company');
    const pages = target.kind === 'page' ? [target.page] : target.pages;
    return { slug: target.company.slug, pages: pages.map((page) => page.compositeSlug) };
  }

  /**
   * Each of the company's pages with its entry price (one item per currency it prices in
   * without a target) and its percentile rank in the sample of that currency.
   */
  private async companyRanks(
    company: { slug: string; pages: string[] },
    question: BenchmarkQuestion,
    samples: Map<string, number[]>,
  ) {
    const extractions = new Map(
      (await this.snapshots.inForceOn(question.asOf, { companySlugs: [company.slug] })).map(
        (extraction) => [extraction.composite_slug, extraction],
      ),
    );
    const pages = company.pages.flatMap((slug): RankedPage[] => {
      const extraction = extractions.get(slug);
      const { entries } = extraction
        ? this.entriesOf(extraction, question.filter, question.target)
        : { entries: [] };
      if (entries.length === 0) {
        return [
          {
            slug,
            version: extraction?.version ?? null,
            entry_price: null,
            currency: question.target?.currency ?? null,
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
    return { slug: company.slug, pages };
  }

  private entriesOf(
    extraction: PageExtraction,
    filter: EntryPriceFilter,
    target: ConversionTarget | undefined,
  ): { entries: PageEntry[]; unconverted: boolean } {
    const document = JSON.parse(extraction.document) as PricingDocument;
    const prices = entryPrices(document, filter, target);
    const entries = [...prices.byCurrency.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, price]) => ({
        slug: extraction.composite_slug,
        version: extraction.version,
        currency,
        price,
      }));
    return { entries, unconverted: prices.unconverted };
  }
}
