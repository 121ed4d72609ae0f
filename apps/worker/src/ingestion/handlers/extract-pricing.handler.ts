import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  DependencyMissingError,
  ExtractPricing,
  PricingExtracted,
  ScrapeCaptured,
  deterministicIds,
  streamIds,
  type IngestOutcome,
  type PricingRecord,
  type SourceScrape,
} from '#app/domain';
import type { StreamReader } from '../batched-stream-reader.js';
import { RecordAppender } from '../record-appender.js';
import { duplicateOrConflict, firstEventOf, requirePage } from '../record-rules.js';

/** An extraction is made from a scrape, so it waits until that scrape is in the log. */
@CommandHandler(ExtractPricing)
export class ExtractPricingHandler implements ICommandHandler<ExtractPricing, IngestOutcome> {
  constructor(private readonly appender: RecordAppender) {}

  execute({ record, origin }: ExtractPricing): Promise<IngestOutcome> {
    const { company_slug, page_slug, version } = record;
    const streamId = streamIds.pricing(company_slug, page_slug, version);
    return this.appender.decideAndAppend(async (streams) => {
      const page = await requirePage(streams, company_slug, page_slug);
      const scrape = await sourceScrape(streams, record);
      const [existing] = await streams.readStream(streamId);
      if (existing) return duplicateOrConflict(record, existing);
      const event = new PricingExtracted(streamId, {
        snapshot_id: deterministicIds.pricingSnapshot(page.page_id, version),
        page_id: page.page_id,
        company_slug,
        page_slug,
        composite_slug: page.composite_slug,
        version,
        scrape,
        plans: record.plans,
      });
      return firstEventOf(record, origin, event);
    });
  }
}

/** The named scraper's scrape of that version, or the first by scraper name. */
async function sourceScrape(streams: StreamReader, record: PricingRecord): Promise<SourceScrape> {
  const { company_slug, page_slug, version, scraper } = record;
  const candidates = scraper
    ? await streams.readStream(streamIds.scrape(company_slug, page_slug, version, scraper))
    : await streams.readStreamStarts(streamIds.scrapesOfVersion(company_slug, page_slug, version));
  const captured = candidates[0];
  if (captured?.type !== ScrapeCaptured.TYPE) {
    throw new DependencyMissingError(
      `no scrape of ${company_slug}/${page_slug} version ${version}` +
        `${scraper ? ` by ${scraper}` : ''} is known yet`,
    );
  }
  const { payload } = captured;
  return {
    id: payload.scrape_id,
    scraper: payload.scraper,
    version: payload.version,
    page_url: payload.page_url,
    captured_at: captured.recordedAt,
  };
}
