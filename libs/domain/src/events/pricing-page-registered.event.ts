import type { DomainEvent } from './domain-event.js';

export interface PricingPageRegisteredPayload {
  page_id: string;
  company_slug: string;
  page_slug: string;
  composite_slug: string;
  pricing_page_url: string;
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
