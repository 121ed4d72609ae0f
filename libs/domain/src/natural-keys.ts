import { contentHash, sha256Hex } from './content-hash.js';
import type { IngestRecord } from './records.js';
import { compositePageSlug } from './slugs.js';

/**
 * Stream ids. Each natural key (docs/API.md, "Natural keys, immutability and duplicates") is one stream, so the event log's unique
 * (stream id, stream version) also makes the natural key unique. A page's stream is named by
 * its composite slug, which therefore cannot be claimed by two pages.
 */
export const streamIds = {
  company: (companySlug: string) => `company-${companySlug}`,
  page: (companySlug: string, pageSlug: string) =>
    `page-${compositePageSlug(companySlug, pageSlug)}`,
  scrape: (companySlug: string, pageSlug: string, version: string, scraper: string) =>
    `scrape-${companySlug}/${pageSlug}/${version}/${scraper}`,
  /** Prefix shared by the scrapes of one page and version, whatever the scraper. */
  scrapesOfVersion: (companySlug: string, pageSlug: string, version: string) =>
    `scrape-${companySlug}/${pageSlug}/${version}/`,
  pricing: (companySlug: string, pageSlug: string, version: string) =>
    `pricing-${companySlug}/${pageSlug}/${version}`,
  /** Prefix shared by the extractions of one page; their stream ids sort by version. */
  pricingOfPage: (companySlug: string, pageSlug: string) => `pricing-${companySlug}/${pageSlug}/`,
  exchangeRate: (date: string, base: string, quote: string) =>
    `exchange-rate-${date}/${base}/${quote}`,
};

/** The natural key of a record, as readable text. */
export function naturalKey(record: IngestRecord): string {
  switch (record.type) {
    case 'company':
      return record.slug;
    case 'page':
      return `${record.company_slug}/${record.page_slug}`;
    case 'scrape':
      return `${record.company_slug}/${record.page_slug}/${record.version}/${record.scraper}`;
    case 'pricing':
      return `${record.company_slug}/${record.page_slug}/${record.version}`;
    case 'exchange_rate':
      return `${record.date}/${record.base}/${record.quote}`;
  }
}

/**
 * Records are never changed once read, and the worker hashes each one several times (its
 * idempotency key, its event's metadata, a duplicate check): each is hashed once.
 */
const contentHashes = new WeakMap<IngestRecord, string>();

export function recordContentHash(record: IngestRecord): string {
  let hash = contentHashes.get(record);
  if (hash === undefined) {
    hash = contentHash(record);
    contentHashes.set(record, hash);
  }
  return hash;
}

/**
 * The event log's idempotency key for the events a record produces: the same record applied
 * twice (a retried job, two workers racing) cannot append twice. Hashed to bound its length.
 */
export function idempotencyKey(record: IngestRecord, streamVersion?: number): string {
  const key = `${record.type}:${sha256Hex(naturalKey(record)).slice(0, 32)}:${recordContentHash(record)}`;
  return streamVersion === undefined ? key : `${key}@${streamVersion}`;
}
