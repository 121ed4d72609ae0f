import type { RecordFields } from '../records.js';
import type { DomainEvent } from './domain-event.js';

/** The scrape an extraction was made from, as it stood in the log when the extraction arrived. */
export interface SourceScrape {
  id: string;
  scraper: string;
  version: string;
  page_url: string;
  captured_at: string;
}

/**
 * A pricing record's fields, with the snapshot's and the page's ids, and the scrape itself in
 * place of the scraper the record may name.
 */
export interface PricingExtractedPayload extends Omit<RecordFields<'pricing'>, 'scraper'> {
  snapshot_id: string;
  page_id: string;
  composite_slug: string;
  scrape: SourceScrape;
}

export class PricingExtracted implements DomainEvent<PricingExtractedPayload> {
  static readonly TYPE = 'pricing.extracted.v1';
  static readonly SCHEMA_VERSION = 1;
  readonly type = PricingExtracted.TYPE;
  readonly schemaVersion = PricingExtracted.SCHEMA_VERSION;
  constructor(
    readonly streamId: string,
    readonly payload: PricingExtractedPayload,
  ) {}
}
