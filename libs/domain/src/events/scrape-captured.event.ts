import type { RecordFields } from '../records.js';
import type { DomainEvent } from './domain-event.js';

/** A scrape record's fields, with the scrape's id and its page's. */
export interface ScrapeCapturedPayload extends RecordFields<'scrape'> {
  scrape_id: string;
  page_id: string;
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
