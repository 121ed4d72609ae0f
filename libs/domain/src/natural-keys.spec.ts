import { describe, expect, it } from 'vitest';
import type {
  CompanyRecord,
  ExchangeRateRecord,
  IngestRecord,
  PageRecord,
  PricingRecord,
  ScrapeRecord,
} from './records.js';
import { idempotencyKey, naturalKey, recordContentHash, streamIds } from './natural-keys.js';
import { contentHash } from './content-hash.js';

const company: CompanyRecord = {
  type: 'company',
  slug: 'notion.so',
  name: 'Notion',
  category: 'Productivity',
  employees: '501-1000',
  url: 'https://www.notion.so',
};

const page: PageRecord = {
  type: 'page',
  company_slug: 'notion.so',
  page_slug: 'enterprise',
  pricing_page_url: 'https://www.notion.so/pricing/enterprise',
};

const scrape: ScrapeRecord = {
  type: 'scrape',
  company_slug: 'notion.so',
  page_slug: 'enterprise',
  version: '20250115',
  page_url: 'https://www.notion.so/pricing/enterprise',
  screenshot_url: null,
  markdown_url: 'https://files.example.com/notion.md',
  html_url: null,
  ocr_url: null,
  scraper: 'scraper_2',
  valid: true,
  score: 8,
  banner_free: null,
};

const pricing: PricingRecord = {
  type: 'pricing',
  company_slug: 'notion.so',
  page_slug: 'enterprise',
  version: '20250115',
  plans: [],
};

const exchangeRate: ExchangeRateRecord = {
  type: 'exchange_rate',
  date: '20250115',
  base: 'EUR',
  quote: 'USD',
  rate: 1.0842,
};

describe('naturalKey', () => {
  it('is the slug for a company', () => {
    expect(naturalKey(company)).toBe('notion.so');
  });

  it('is company and page for a page', () => {
    expect(naturalKey(page)).toBe('notion.so/enterprise');
    expect(naturalKey({ ...page, page_slug: '' })).toBe('notion.so/');
  });

  it('is company, page, version and scraper for a scrape', () => {
    expect(naturalKey(scrape)).toBe('notion.so/enterprise/20250115/scraper_2');
  });

  it('is company, page and version for a pricing extraction, whatever the scraper', () => {
    expect(naturalKey(pricing)).toBe('notion.so/enterprise/20250115');
    expect(naturalKey({ ...pricing, scraper: 'scraper_3' })).toBe(naturalKey(pricing));
  });

  it('is date, base and quote for an exchange rate', () => {
    expect(naturalKey(exchangeRate)).toBe('20250115/EUR/USD');
    expect(naturalKey({ ...exchangeRate, base: 'USD', quote: 'EUR' })).toBe('20250115/USD/EUR');
  });

  it('does not depend on the non-key fields', () => {
    expect(naturalKey({ ...company, name: 'Other' })).toBe(naturalKey(company));
    expect(naturalKey({ ...scrape, score: 1 })).toBe(naturalKey(scrape));
    expect(naturalKey({ ...exchangeRate, rate: 1.1 })).toBe(naturalKey(exchangeRate));
  });

  it('tells apart a primary page and a sub-page', () => {
    expect(naturalKey({ ...page, page_slug: '' })).not.toBe(naturalKey(page));
  });
});

describe('streamIds', () => {
  it('names the company stream by the full company slug', () => {
    expect(streamIds.company('notion.so')).toBe('company-notion.so');
    expect(streamIds.company('notion.so')).not.toBe(streamIds.company('notion.com'));
  });

  it('names the page stream by the composite slug', () => {
    expect(streamIds.page('notion.so', 'enterprise')).toBe('page-notion.enterprise');
    expect(streamIds.page('notion.so', '')).toBe('page-notion');
  });

  it('maps two primary pages with the same composite slug to the same stream', () => {
    expect(streamIds.page('twin.io', '')).toBe(streamIds.page('twin.com', ''));
    expect(streamIds.page('twin.io', 'teams')).toBe(streamIds.page('twin.com', 'teams'));
  });

  it('keeps the pages of one company apart', () => {
    expect(streamIds.page('notion.so', '')).not.toBe(streamIds.page('notion.so', 'enterprise'));
  });

  it('names scrape streams per scraper, under a prefix shared by one version', () => {
    const one = streamIds.scrape('notion.so', 'enterprise', '20250115', 'scraper_1');
    const two = streamIds.scrape('notion.so', 'enterprise', '20250115', 'scraper_2');
    const prefix = streamIds.scrapesOfVersion('notion.so', 'enterprise', '20250115');
    expect(one).not.toBe(two);
    expect(one.startsWith(prefix)).toBe(true);
    expect(two.startsWith(prefix)).toBe(true);
    expect(
      streamIds.scrape('notion.so', 'enterprise', '20250116', 'scraper_1').startsWith(prefix),
    ).toBe(false);
  });

  it('does not let one page version prefix match another page', () => {
    // "enterprise" must not share a version prefix with a page "enterprise-plus".
    const prefix = streamIds.scrapesOfVersion('notion.so', 'enterprise', '20250115');
    const other = streamIds.scrape('notion.so', 'enterprise-plus', '20250115', 'scraper_1');
    expect(other.startsWith(prefix)).toBe(false);
  });

  it('names the pricing stream by company, page and version', () => {
    expect(streamIds.pricing('notion.so', 'enterprise', '20250115')).toBe(
      'pricing-notion.so/enterprise/20250115',
    );
    expect(streamIds.pricing('notion.so', '', '20250115')).not.toBe(
      streamIds.pricing('notion.so', 'enterprise', '20250115'),
    );
  });

  it('names the exchange rate stream by date, base and quote', () => {
    expect(streamIds.exchangeRate('20250115', 'EUR', 'USD')).toBe('exchange-rate-20250115/EUR/USD');
  });

  it('fits the event log stream_id column (400) for the longest valid slugs', () => {
    // Company slugs are limited to 255 characters and page slugs to 100.
    const longCompany = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}`;
    const longPage = 'p'.repeat(100);
    expect(longCompany).toHaveLength(255);
    const ids = [
      streamIds.company(longCompany),
      streamIds.page(longCompany, longPage),
      streamIds.scrape(longCompany, longPage, '20250115', 'scraper_4'),
      streamIds.pricing(longCompany, longPage, '20250115'),
    ];
    for (const id of ids) expect(id.length).toBeLessThanOrEqual(400);
  });
});

describe('recordContentHash', () => {
  it('is the content hash of the record', () => {
    expect(recordContentHash(company)).toBe(contentHash(company));
  });
});

describe('idempotencyKey', () => {
  const records: IngestRecord[] = [company, page, scrape, pricing, exchangeRate];

  it('is stable for the same record', () => {
    for (const record of records) {
      expect(idempotencyKey(record)).toBe(idempotencyKey(structuredClone(record)));
    }
  });

  it('starts with the record type', () => {
    for (const record of records) {
      expect(idempotencyKey(record).startsWith(`${record.type}:`)).toBe(true);
    }
  });

  it('does not depend on the order of the keys', () => {
    const reordered: CompanyRecord = {
      url: company.url,
      employees: company.employees,
      category: company.category,
      name: company.name,
      slug: company.slug,
      type: 'company',
    };
    expect(idempotencyKey(reordered)).toBe(idempotencyKey(company));
  });

  it('differs when the content differs under the same natural key', () => {
    expect(idempotencyKey({ ...company, name: 'Notion Labs' })).not.toBe(idempotencyKey(company));
    expect(idempotencyKey({ ...scrape, score: 9 })).not.toBe(idempotencyKey(scrape));
  });

  it('differs between natural keys', () => {
    expect(idempotencyKey({ ...page, page_slug: 'teams' })).not.toBe(idempotencyKey(page));
  });

  it('differs by stream version and from the key without one', () => {
    expect(idempotencyKey(company, 1)).not.toBe(idempotencyKey(company, 2));
    expect(idempotencyKey(company, 1)).not.toBe(idempotencyKey(company));
    expect(idempotencyKey(company, 0)).not.toBe(idempotencyKey(company));
  });

  it('stays within 200 characters even for a 255-character slug', () => {
    const longSlug = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}`;
    expect(longSlug).toHaveLength(255);
    const long: IngestRecord[] = [
      { ...company, slug: longSlug },
      { ...page, company_slug: longSlug, page_slug: 'p'.repeat(100) },
      { ...scrape, company_slug: longSlug, page_slug: 'p'.repeat(100) },
      { ...pricing, company_slug: longSlug, page_slug: 'p'.repeat(100) },
    ];
    for (const record of long) {
      expect(idempotencyKey(record, 2_147_483_647).length).toBeLessThanOrEqual(200);
    }
  });
});
