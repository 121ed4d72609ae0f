import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  CaptureScrape,
  ScrapeCaptured,
  deterministicIds,
  streamIds,
  type IngestOutcome,
} from '#app/domain';
import { RecordAppender } from '../record-appender.js';
import { duplicateOrConflict, firstEventOf, requirePage } from '../record-rules.js';

@CommandHandler(CaptureScrape)
export class CaptureScrapeHandler implements ICommandHandler<CaptureScrape, IngestOutcome> {
  constructor(private readonly appender: RecordAppender) {}

  execute({ record, origin }: CaptureScrape): Promise<IngestOutcome> {
    const { company_slug, page_slug, version, scraper } = record;
    const streamId = streamIds.scrape(company_slug, page_slug, version, scraper);
    return this.appender.decideAndAppend(async (streams) => {
      const page = await requirePage(streams, company_slug, page_slug);
      const [existing] = await streams.readStream(streamId);
      if (existing) return duplicateOrConflict(record, existing);
      const event = new ScrapeCaptured(streamId, {
        scrape_id: deterministicIds.scrape(page.page_id, version, scraper),
        page_id: page.page_id,
        company_slug,
        page_slug,
        version,
        scraper,
        page_url: record.page_url,
        screenshot_url: record.screenshot_url,
        markdown_url: record.markdown_url,
        html_url: record.html_url,
        ocr_url: record.ocr_url,
        valid: record.valid,
        score: record.score,
        banner_free: record.banner_free,
      });
      return firstEventOf(record, origin, event);
    });
  }
}
