import { Injectable } from '@nestjs/common';
import { ScrapeCaptured, type RecordedEvent, type ScrapeCapturedPayload } from '#app/domain';
import { ReadModelTables, Transaction } from '#app/persistence';
import type { Projector } from './projector.js';

@Injectable()
export class ScrapeFilesProjector implements Projector {
  readonly name = 'scrape-files';

  constructor(private readonly tables: ReadModelTables) {}

  async apply(tx: Transaction, events: RecordedEvent[]): Promise<void> {
    const rows = events
      .filter((event) => event.type === ScrapeCaptured.TYPE)
      .map((event) => {
        const scrape = event.payload as ScrapeCapturedPayload;
        return {
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
        };
      });
    await this.tables.scrapeFiles.insert(tx, rows);
  }

  clear(tx: Transaction): Promise<void> {
    return this.tables.scrapeFiles.clear(tx);
  }
}
