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
import { ReadModelTables, Transaction, type ScrapeFileEntity } from '#app/persistence';
import type { Projector } from './projector.js';

@Injectable()
export class ScrapeFilesProjector implements Projector {
  readonly name = 'scrape-files';

  constructor(private readonly tables: ReadModelTables) {}

  async apply(tx: Transaction, events: DecodedEvent[]): Promise<void> {
    const rows: ScrapeFileEntity[] = [];
    for (const event of events) {
      switch (event.type) {
        case ScrapeCaptured.TYPE: {
          const scrape = event.payload;
          rows.push({
            id: scrape.scrape_id,
            pageId: scrape.page_id,
            companySlug: scrape.company_slug,
            pageSlug: scrape.page_slug,
            version: scrape.version,
            scraper: scrape.scraper,
            pageUrl: scrape.page_url,
            screenshotUrl: scrape.screenshot_url,
            markdownUrl: scrape.markdown_url,
            htmlUrl: scrape.html_url,
            ocrUrl: scrape.ocr_url,
            valid: scrape.valid,
            score: scrape.score,
            bannerFree: scrape.banner_free,
            createdAt: event.recordedAt,
            updatedAt: event.recordedAt,
          });
          break;
        }
        case CompanyRegistered.TYPE:
        case CompanyProfileChanged.TYPE:
        case PricingPageRegistered.TYPE:
        case PricingExtracted.TYPE:
        case ExchangeRateRecorded.TYPE:
          break;
        default:
          unhandledEvent(event);
      }
    }
    await this.tables.scrapeFiles.insert(tx, rows);
  }

  clear(tx: Transaction): Promise<void> {
    return this.tables.scrapeFiles.clear(tx);
  }
}
