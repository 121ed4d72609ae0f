import type { DomainEvent } from './domain-event.js';

export interface ScrapeCapturedPayload {
  scrape_id: string;
  page_id: string;
  company_slug: string;
  page_slug: string;
  version: string;
  scraper: string;
  page_url: string;
  screenshot_url: string | null;
  markdown_url: string | null;
  html_url: string | null;
  ocr_url: string | null;
  valid: boolean | null;
  score: number | null;
  banner_free: boolean | null;
}

export class ScrapeCaptured implements DomainEvent<ScrapeCapturedPayload> {
  static readonly TYPE = 'scrape.captured.v1';
  static readonly SCHEMA_VERSION = 1;
  readonly type = ScrapeCaptured.TYPE;
  readonly schemaVersion = ScrapeCaptured.SCHEMA_VERSION;
  constructor(
    readonly streamId: string,
    readonly payload: ScrapeCapturedPayload,
  ) {}
}
