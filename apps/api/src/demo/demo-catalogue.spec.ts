import { describe, it, expect } from 'vitest';
import {
  BILLING_VALUES,
  CATEGORIES,
  COMPANY_SLUG,
  ExchangeRateBook,
  OPEN_IDENTIFIER,
  PAGE_SLUG,
  companySlugBase,
  employeeBandLowerBound,
  isValidVersion,
  naturalKey,
  type CompanyRecord,
  type ExchangeRateRecord,
  type PageRecord,
  type PricingRecord,
  type ScrapeRecord,
} from '#app/domain';
import { buildDemoCatalogue } from './demo-catalogue.js';

// Built once: the catalogue is deterministic and every assertion only reads it.
const catalogue = buildDemoCatalogue();
const companies = catalogue.filter((r): r is CompanyRecord => r.type === 'company');
const pages = catalogue.filter((r): r is PageRecord => r.type === 'page');
const scrapes = catalogue.filter((r): r is ScrapeRecord => r.type === 'scrape');
const pricing = catalogue.filter((r): r is PricingRecord => r.type === 'pricing');
const rates = catalogue.filter((r): r is ExchangeRateRecord => r.type === 'exchange_rate');

function pageKey(companySlug: string, pageSlug: string): string {
  return `${companySlug}/${pageSlug}`;
}

function quarterOf(version: string): string {
  return `${version.slice(0, 4)}q${Math.ceil(Number(version.slice(4, 6)) / 3)}`;
}

/** Plan (internal name) -> its charges' prices, to compare one plan across two extractions. */
function planPrices(record: PricingRecord): Map<string, string> {
  return new Map(
    record.plans.map((plan) => [
      plan.internal_name,
      JSON.stringify(plan.charges.map((charge) => charge.price)),
    ]),
  );
}

/** Whether a plan offered in both extractions is priced differently in the later one. */
function hasRepricedPlan(first: PricingRecord, last: PricingRecord): boolean {
  const before = planPrices(first);
  const after = planPrices(last);
  return [...before].some(([plan, prices]) => after.has(plan) && after.get(plan) !== prices);
}

describe('buildDemoCatalogue', () => {
  it('is deterministic', () => {
    expect(buildDemoCatalogue()).toEqual(catalogue);
    expect(buildDemoCatalogue({ today: new Date(Date.UTC(2026, 10, 16)) })).toEqual(catalogue);
  });

  it('keeps the total record count moderate', () => {
    expect(catalogue.length).toBeGreaterThanOrEqual(3_000);
    expect(catalogue.length).toBeLessThanOrEqual(10_000);
  });

  it('lists records in dependency order: companies, pages, scrapes, pricing, then rates', () => {
    const order = catalogue.map((record) =>
      ['company', 'page', 'scrape', 'pricing', 'exchange_rate'].indexOf(record.type),
    );
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('has at least 60 valid companies over all 8 categories', () => {
    expect(companies.length).toBeGreaterThanOrEqual(60);
    expect(new Set(companies.map((c) => c.category))).toEqual(new Set(CATEGORIES));
    for (const company of companies) {
      expect(company.slug).toMatch(COMPANY_SLUG);
      expect(company.slug).toContain('.');
      expect(company.url).toMatch(/^https:\/\//);
      expect(employeeBandLowerBound(company.employees)).not.toBeNull();
    }
  });

  it('gives every company a unique slug base', () => {
    const bases = companies.map((company) => companySlugBase(company.slug));
    expect(new Set(bases).size).toBe(companies.length);
  });

  it('gives every company a primary page and at least 8 companies 2 or 3 pages', () => {
    const pageCounts = new Map<string, number>();
    for (const page of pages) {
      expect(page.page_slug).toMatch(PAGE_SLUG);
      expect(page.pricing_page_url).toMatch(/^https:\/\//);
      pageCounts.set(page.company_slug, (pageCounts.get(page.company_slug) ?? 0) + 1);
    }
    for (const company of companies) {
      expect(pages.some((p) => p.company_slug === company.slug && p.page_slug === '')).toBe(true);
    }
    const multiPage = [...pageCounts.values()].filter((count) => count === 2 || count === 3);
    expect(multiPage.length).toBeGreaterThanOrEqual(8);
    expect(Math.max(...pageCounts.values())).toBeLessThanOrEqual(3);
  });

  it('only references records that come earlier in the array', () => {
    const seenCompanies = new Set<string>();
    const seenPages = new Set<string>();
    const seenScrapes = new Set<string>();
    for (const record of catalogue) {
      switch (record.type) {
        case 'company':
          seenCompanies.add(record.slug);
          break;
        case 'page':
          expect(seenCompanies.has(record.company_slug)).toBe(true);
          seenPages.add(pageKey(record.company_slug, record.page_slug));
          break;
        case 'scrape':
          expect(seenPages.has(pageKey(record.company_slug, record.page_slug))).toBe(true);
          seenScrapes.add(
            `${pageKey(record.company_slug, record.page_slug)}/${record.version}/${record.scraper}`,
          );
          break;
        case 'pricing': {
          const key = `${pageKey(record.company_slug, record.page_slug)}/${record.version}/${record.scraper}`;
          expect(seenScrapes.has(key), key).toBe(true);
          break;
        }
      }
    }
  });

  it('has no two records with the same natural key', () => {
    const keys = catalogue.map((record) => `${record.type}:${naturalKey(record)}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('uses valid versions and scrape fields', () => {
    for (const scrape of scrapes) {
      expect(isValidVersion(scrape.version), scrape.version).toBe(true);
      expect(scrape.scraper).toMatch(/^scraper_[1-4]$/);
      expect(Number.isInteger(scrape.score)).toBe(true);
      expect(scrape.score).toBeGreaterThanOrEqual(0);
      expect(scrape.score).toBeLessThanOrEqual(10);
    }
    for (const record of pricing) {
      expect(isValidVersion(record.version), record.version).toBe(true);
    }
  });

  it('spans at least 8 distinct quarters of scrapes', () => {
    expect(new Set(scrapes.map((scrape) => quarterOf(scrape.version))).size).toBeGreaterThanOrEqual(
      8,
    );
  });

  it('shapes plans as the pricing document does', () => {
    for (const record of pricing) {
      expect(record.plans.length).toBeGreaterThanOrEqual(2);
      expect(record.plans.length).toBeLessThanOrEqual(4);
      for (const plan of record.plans) {
        expect(plan.internal_name).toMatch(OPEN_IDENTIFIER);
        for (const charge of plan.charges) {
          expect(BILLING_VALUES).toContain(charge.billing);
          expect(charge.charge_type).toMatch(OPEN_IDENTIFIER);
          if (charge.usage_type !== undefined) expect(charge.usage_type).toMatch(OPEN_IDENTIFIER);
          if (charge.pricing_metric)
            expect(charge.pricing_metric.modality).toMatch(OPEN_IDENTIFIER);
          expect(charge.pricing_metric === null).toBe(charge.charge_type === 'flat');
          if (charge.price !== null)
            expect(Math.round(charge.price * 100) / 100).toBe(charge.price);
        }
        for (const discount of plan.discounts) {
          expect(discount.discount_category).toMatch(OPEN_IDENTIFIER);
          expect(discount.amount_type).toMatch(OPEN_IDENTIFIER);
        }
      }
    }
  });

  it('changes prices over time on at least one page', () => {
    const byPage = new Map<string, PricingRecord[]>();
    for (const record of pricing) {
      const key = pageKey(record.company_slug, record.page_slug);
      byPage.set(key, [...(byPage.get(key) ?? []), record]);
    }
    const changed = [...byPage.values()].filter((records) =>
      hasRepricedPlan(records[0], records[records.length - 1]),
    );
    expect(changed.length).toBeGreaterThanOrEqual(1);
  });

  it('prices pages in dollars, euros and pounds, each page in one currency', () => {
    const currencies = new Map<string, Set<string>>();
    for (const record of pricing) {
      const page = pageKey(record.company_slug, record.page_slug);
      for (const charge of record.plans.flatMap((plan) => plan.charges)) {
        currencies.set(page, (currencies.get(page) ?? new Set()).add(charge.currency));
      }
    }
    const pagesIn = (currency: string) =>
      [...currencies.values()].filter((set) => set.has(currency)).length;
    expect([...currencies.values()].every((set) => set.size === 1)).toBe(true);
    expect(pagesIn('USD') + pagesIn('EUR') + pagesIn('GBP')).toBe(currencies.size);
    expect(pagesIn('EUR')).toBeGreaterThanOrEqual(5);
    expect(pagesIn('GBP')).toBeGreaterThanOrEqual(5);
  });

  it('has valid exchange rates: calendar dates, two currencies that differ, 0 < rate <= 1e6', () => {
    expect(rates.length).toBeGreaterThan(0);
    for (const rate of rates) {
      expect(isValidVersion(rate.date), rate.date).toBe(true);
      expect(rate.base).not.toBe(rate.quote);
      expect(rate.rate).toBeGreaterThan(0);
      expect(rate.rate).toBeLessThanOrEqual(1_000_000);
      expect(Math.round(rate.rate * 10_000) / 10_000).toBe(rate.rate);
    }
  });

  it('converts every price into dollars, euros and pounds at every version of the history', () => {
    const book = new ExchangeRateBook(rates);
    const missing = pricing.flatMap((record) =>
      record.plans.flatMap((plan) =>
        plan.charges.flatMap((charge) =>
          ['USD', 'EUR', 'GBP'].flatMap((target) =>
            book.rateFor(charge.currency, target, record.version)
              ? []
              : [`${charge.currency} into ${target} on ${record.version}`],
          ),
        ),
      ),
    );
    expect(missing).toEqual([]);
  });
});
