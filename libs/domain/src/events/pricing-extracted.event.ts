import type { PlanInput } from '../records.js';
import type { DomainEvent } from './domain-event.js';

/** The scrape an extraction was made from, as it stood in the log when the extraction arrived. */
export interface SourceScrape {
  id: string;
  scraper: string;
  version: string;
  page_url: string;
  captured_at: string;
}

export interface PricingExtractedPayload {
  snapshot_id: string;
  page_id: string;
  company_slug: string;
  page_slug: string;
  composite_slug: string;
  version: string;
  scrape: SourceScrape;
  plans: PlanInput[];
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
