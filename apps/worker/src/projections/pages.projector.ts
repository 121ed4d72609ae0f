import { Injectable } from '@nestjs/common';
import {
  CompanyProfileChanged,
  CompanyRegistered,
  ExchangeRateRecorded,
  PricingExtracted,
  PricingPageRegistered,
  ScrapeCaptured,
  unhandledEvent,
  type DecodedEvent,
} from '#app/domain';
import { ReadModelTables, Transaction, type PricingPageEntity } from '#app/persistence';
import type { Projector } from './projector.js';

@Injectable()
export class PagesProjector implements Projector {
  readonly name = 'pages';

  constructor(private readonly tables: ReadModelTables) {}

  async apply(tx: Transaction, events: DecodedEvent[]): Promise<void> {
    const rows: PricingPageEntity[] = [];
    for (const event of events) {
      switch (event.type) {
        case PricingPageRegistered.TYPE: {
          const page = event.payload;
          rows.push({
            id: page.page_id,
            companySlug: page.company_slug,
            pageSlug: page.page_slug,
            compositeSlug: page.composite_slug,
            pricingPageUrl: page.pricing_page_url,
            createdAt: event.recordedAt,
          });
          break;
        }
        case CompanyRegistered.TYPE:
        case CompanyProfileChanged.TYPE:
        case ScrapeCaptured.TYPE:
        case PricingExtracted.TYPE:
        case ExchangeRateRecorded.TYPE:
          break;
        default:
          unhandledEvent(event);
      }
    }
    await this.tables.pages.insert(tx, rows);
  }

  clear(tx: Transaction): Promise<void> {
    return this.tables.pages.clear(tx);
  }
}
