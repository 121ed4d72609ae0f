import { Injectable } from '@nestjs/common';
import {
  lowestEntryPrices,
  MAX_PRICE_INDEX_POINTS,
  percentileRank,
  roundMoney,
  summarise,
  type ConversionTarget,
  type SeriesStep,
} from '#app/domain';
import {
  PriceIndexReader,
  type InForceRange,
  type PriceIndexExtraction,
  type PriceIndexSelection,
} from '#app/persistence';
import { SlugResolver } from '../catalogue/slug-resolver.js';
import { ConversionTargets } from '../currency/conversion-targets.js';
import { seriesDatesWithin } from '../http/series-range.js';

/** Which pages a sample takes, and which of their charges count: lists, any value matching. */
export interface SampleFilters {
  categories?: string[];
  employees?: string[];
  billing?: string[];
  modalities?: string[];
}

/** What a benchmark is asked: the sample, the date, the currency, the company to rank. */
interface BenchmarkQuestion {
  filters: SampleFilters;
  asOf: string;
  currency?: string;
  company?: string;
}

/** What a price index is asked: the sample, the range and its step, the currency. */
interface PriceIndexQuestion {
  filters: SampleFilters;
  step: SeriesStep;
  from: string;
  to: string;
  currency?: string;
}

/** An extraction as a sample counts it: the days it is in force, its entry prices. */
interface PricedExtraction {
  pageId: string;
  version: string;
  until: string | null;
  /** Its entry price in each currency, unrounded, ordered by code. */
  entries: [currency: string, price: number][];
  /** Given a currency: it has priced charges, none of which could be converted. */
  unconverted: boolean;
}

/** One of the company's pages: its id, and its composite slug. */
interface CompanyPage {
  id: string;
  slug: string;
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

/** The entry prices of the pages of a sample, by currency (only the target's, given one). */
class Sample {
  readonly prices = new Map<string, number[]>();
  /** Pages left out for want of a rate. */
  unconverted = 0;

  constructor(currency?: string) {
    if (currency !== undefined) this.prices.set(currency, []);
  }

  add(extraction: PricedExtraction): void {
    if (extraction.unconverted) this.unconverted++;
    for (const [currency, price] of extraction.entries) {
      const prices = this.prices.get(currency);
      if (prices) prices.push(price);
      else this.prices.set(currency, [price]);
    }
  }

  /** A group per currency, ordered by code (BenchmarkGroupDto). */
  groups() {
    return [...this.prices.entries()]
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
  }
}

/**
 * GET /v1/api/benchmarks and /benchmarks/series: entry-price quartiles over a sample of pages at
 * a date or at each step of a range, and a company's rank, from the price index's read model.
 */
@Injectable()
export class BenchmarksQueries {
  constructor(
    private readonly index: PriceIndexReader,
    private readonly slugs: SlugResolver,
    private readonly conversions: ConversionTargets,
  ) {}

  async benchmark(question: BenchmarkQuestion) {
    const { filters, asOf, currency } = question;
    // The company is looked up first: an unknown one is a 404 before any sample is read.
    const company = question.company ? await this.companyPages(question.company) : undefined;
    const sample = new Sample(currency);
    await this.eachExtraction({ from: asOf, to: asOf }, filters, currency, (e) => sample.add(e));
    return {
      as_of: asOf,
      currency: currency ?? null,
      groups: sample.groups(),
      ...(currency === undefined ? {} : { unconverted: sample.unconverted }),
      ...(company
        ? {
            company: {
              slug: company.slug,
              pages: await this.ranks(company.pages, asOf, filters, currency, sample),
            },
          }
        : {}),
    };
  }

  /** The groups of the sample at the start of each step (PriceIndexDto). */
  async series(question: PriceIndexQuestion) {
    const { filters, step, from, to, currency } = question;
    const dates = seriesDatesWithin(step, from, to, MAX_PRICE_INDEX_POINTS);
    const samples = dates.map(() => new Sample(currency));
    const range = { from: dates[0]!, to: dates.at(-1)! };
    await this.eachExtraction(range, filters, currency, (extraction) => {
      // The points from its version until the page's next extraction.
      const { version, until } = extraction;
      for (let i = firstOnOrAfter(dates, version); i < dates.length; i++) {
        if (until !== null && dates[i]! >= until) break;
        samples[i]!.add(extraction);
      }
    });
    return {
      from,
      to,
      step,
      currency: currency ?? null,
      points: dates.map((date, i) => ({ date, groups: samples[i]!.groups() })),
    };
  }

  /**
   * Hands each selected extraction in force on a day of `range` to `visit`, priced (converted
   * given a currency, with the rates of the currencies met so far: an extraction that brings a
   * new one reads them again).
   */
  private async eachExtraction(
    range: InForceRange,
    selection: PriceIndexSelection,
    currency: string | undefined,
    visit: (extraction: PricedExtraction) => void,
  ): Promise<void> {
    let target: ConversionTarget | undefined;
    const covered = new Set<string>();
    for await (const pages of this.index.pages(range, selection)) {
      for (const page of pages) {
        for (const extraction of page.extractions()) {
          const { candidates } = extraction;
          if (
            currency !== undefined &&
            candidates.some((candidate) => !covered.has(candidate.currency))
          ) {
            for (const candidate of candidates) covered.add(candidate.currency);
            target = await this.conversions.forCurrencies(currency, covered);
          }
          visit(priced(page.pageId, extraction, target));
        }
      }
    }
  }

  /**
   * Each of the company's pages with its entry price (one item per currency it prices in
   * without a target) and its percentile rank in the sample of that currency.
   */
  private async ranks(
    pages: CompanyPage[],
    asOf: string,
    filters: SampleFilters,
    currency: string | undefined,
    sample: Sample,
  ): Promise<RankedPage[]> {
    const ids = pages.map((page) => page.id);
    const inForce = new Map(
      (await this.index.versionsInForce(asOf, ids)).map((row) => [row.page_id, row.version]),
    );
    const extractions = new Map<string, PricedExtraction>();
    const selection = { pageIds: ids, billing: filters.billing, modalities: filters.modalities };
    await this.eachExtraction({ from: asOf, to: asOf }, selection, currency, (extraction) =>
      extractions.set(extraction.pageId, extraction),
    );
    return pages.flatMap((page): RankedPage[] => {
      const extraction = extractions.get(page.id);
      if (!extraction || extraction.entries.length === 0) {
        return [
          {
            slug: page.slug,
            version: inForce.get(page.id) ?? null,
            entry_price: null,
            currency: currency ?? null,
            percentile: null,
          },
        ];
      }
      return extraction.entries.map(([entryCurrency, price]) => ({
        slug: page.slug,
        version: extraction.version,
        entry_price: roundMoney(price),
        currency: entryCurrency,
        percentile: percentileRank(sample.prices.get(entryCurrency) ?? [], price),
      }));
    });
  }

  /** The company's full slug and its pages, or the 404 of an unknown slug. */
  private async companyPages(slug: string) {
    const target = await this.slugs.resolve(slug);
    if (!target) throw await this.slugs.unknownSlugWithSuggestion(slug, 'company');
    const pages = target.kind === 'page' ? [target.page] : target.pages;
    return {
      slug: target.company.slug,
      pages: pages.map((page): CompanyPage => ({ id: page.id, slug: page.compositeSlug })),
    };
  }
}

/** One extraction's candidates that count, priced. */
function priced(
  pageId: string,
  { version, until, candidates }: PriceIndexExtraction,
  target: ConversionTarget | undefined,
): PricedExtraction {
  const prices = lowestEntryPrices(candidates, version, target);
  return {
    pageId,
    version,
    until,
    entries: [...prices.byCurrency.entries()].sort(([a], [b]) => a.localeCompare(b)),
    unconverted: prices.unconverted,
  };
}

/** The index of the first of the ascending `dates` on or after `date` (their length: none). */
function firstOnOrAfter(dates: readonly string[], date: string): number {
  let low = 0;
  let high = dates.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (dates[middle]! < date) low = middle + 1;
    else high = middle;
  }
  return low;
}
