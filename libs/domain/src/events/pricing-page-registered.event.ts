import type { RecordFields } from '../records.js';
import type { DomainEvent } from './domain-event.js';

/** A page record's fields, with the page's id and composite slug. */
export interface PricingPageRegisteredPayload extends RecordFields<'page'> {
  page_id: string;
  composite_slug: string;
}

export class PricingPageRegistered implements DomainEvent<PricingPageRegisteredPayload> {
  static readonly TYPE = 'pricing-page.registered.v1';
  static readonly SCHEMA_VERSION = 1;
  readonly type = PricingPageRegistered.TYPE;
  readonly schemaVersion = PricingPageRegistered.SCHEMA_VERSION;
  constructor(
    readonly streamId: string,
    readonly payload: PricingPageRegisteredPayload,
  ) {}
}
