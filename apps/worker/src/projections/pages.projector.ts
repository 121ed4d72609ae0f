import { Injectable } from '@nestjs/common';
import {
  PricingPageRegistered,
  type PricingPageRegisteredPayload,
  type RecordedEvent,
} from '#app/domain';
import { ReadModelTables, Transaction } from '#app/persistence';
import type { Projector } from './projector.js';

@Injectable()
export class PagesProjector implements Projector {
  readonly name = 'pages';

  constructor(private readonly tables: ReadModelTables) {}

  async apply(tx: Transaction, events: RecordedEvent[]): Promise<void> {
    const rows = events
      .filter((event) => event.type === PricingPageRegistered.TYPE)
      .map((event) => {
        const page = event.payload as PricingPageRegisteredPayload;
        return {
          id: page.page_id,
          companySlug: page.company_slug,
          pageSlug: page.page_slug,
          compositeSlug: page.composite_slug,
          pricingPageUrl: page.pricing_page_url,
          createdAt: event.recordedAt,
        };
      });
    await this.tables.pages.insert(tx, rows);
  }

  clear(tx: Transaction): Promise<void> {
    return this.tables.pages.clear(tx);
  }
}
