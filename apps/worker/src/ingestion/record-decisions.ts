import {
  CompanyProfileChanged,
  CompanyRegistered,
  DependencyMissingError,
  ExchangeRateRecorded,
  PricingExtracted,
  PricingPageRegistered,
  RecordConflictError,
  ScrapeCaptured,
  canonicalJson,
  compositePageSlug,
  deterministicIds,
  idempotencyKey,
  naturalKey,
  recordContentHash,
  streamIds,
  type CommandOrigin,
  type CompanyProfile,
  type DecodedEvent,
  type IngestRecord,
  type PricingPageRegisteredPayload,
  type PricingRecord,
  type RegisteredEvent,
  type SourceScrape,
} from '#app/domain';
import type { PendingAppend } from '#app/persistence';

/** The part of the log a chunk's records were decided against, read before any decision. */
export interface LogView {
  /** The events of a stream, in order. */
  stream(streamId: string): DecodedEvent[];
  /** The first event of every stream whose id starts with `prefix`, by stream id. */
  streamStarts(prefix: string): DecodedEvent[];
  /** Whether `event` was in the log before this chunk's decisions began (not appended by them). */
  before(event: DecodedEvent): boolean;
}

/** What a record's decision reads: named before it is made, so a chunk reads them all at once. */
export interface Reads {
  streams: string[];
  prefixes: string[];
}

/** The record is already in the log as this event; or this is what it appends. */
export type Decision = { sameAs: DecodedEvent } | PendingAppend;

/** The streams a record's decision reads. */
export function readsOf(record: IngestRecord): Reads {
  switch (record.type) {
    case 'company':
      return { streams: [streamIds.company(record.slug)], prefixes: [] };
    case 'page':
      return {
        streams: [
          streamIds.company(record.company_slug),
          streamIds.page(record.company_slug, record.page_slug),
        ],
        prefixes: [],
      };
    case 'scrape': {
      const { company_slug, page_slug, version, scraper } = record;
      return {
        streams: [
          streamIds.page(company_slug, page_slug),
          streamIds.scrape(company_slug, page_slug, version, scraper),
        ],
        prefixes: [],
      };
    }
    case 'pricing': {
      const { company_slug, page_slug, version, scraper } = record;
      const streams = [
        streamIds.page(company_slug, page_slug),
        streamIds.pricing(company_slug, page_slug, version),
      ];
      // Without a scraper, the extraction was made from the first scrape of its version.
      if (scraper)
        return {
          streams: [...streams, streamIds.scrape(company_slug, page_slug, version, scraper)],
          prefixes: [],
        };
      return { streams, prefixes: [streamIds.scrapesOfVersion(company_slug, page_slug, version)] };
    }
    case 'exchange_rate':
      return {
        streams: [streamIds.exchangeRate(record.date, record.base, record.quote)],
        prefixes: [],
      };
    default:
      return record satisfies never;
  }
}

/**
 * Decides a record against the log: the event it is already recorded as, or the event it
 * appends. Throws DependencyMissingError when its company, page or scrape is not in the log yet,
 * RecordConflictError when its natural key is recorded with other content.
 */
export function decide(record: IngestRecord, log: LogView, origin: CommandOrigin): Decision {
  switch (record.type) {
    case 'company':
      return decideCompany(record, log, origin);
    case 'page': {
      requireCompany(log, record.company_slug);
      const streamId = streamIds.page(record.company_slug, record.page_slug);
      const compositeSlug = compositePageSlug(record.company_slug, record.page_slug);
      const [existing] = log.stream(streamId);
      if (existing) {
        // A page's stream is named by its composite slug, so two pages that would share one
        // (`notion.so` and `notion.com`, both `notion`) cannot both be registered.
        const claimedBy = pageRegistration(existing);
        if (
          claimedBy &&
          (claimedBy.company_slug !== record.company_slug ||
            claimedBy.page_slug !== record.page_slug)
        ) {
          throw new RecordConflictError(
            `composite slug ${compositeSlug} of page ${record.company_slug}/${record.page_slug} is ` +
              `already used by page ${claimedBy.company_slug}/${claimedBy.page_slug}`,
          );
        }
        return sameOrConflict(record, existing);
      }
      const payload: PricingPageRegisteredPayload = {
        page_id: deterministicIds.page(record.company_slug, record.page_slug),
        company_slug: record.company_slug,
        page_slug: record.page_slug,
        composite_slug: compositeSlug,
        pricing_page_url: record.pricing_page_url,
      };
      return firstEventOf(record, origin, new PricingPageRegistered(streamId, payload));
    }
    case 'scrape': {
      const { company_slug, page_slug, version, scraper } = record;
      const page = requirePage(log, company_slug, page_slug);
      const streamId = streamIds.scrape(company_slug, page_slug, version, scraper);
      const [existing] = log.stream(streamId);
      if (existing) return sameOrConflict(record, existing);
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
    }
    case 'pricing': {
      // An extraction is made from a scrape, so it waits until that scrape is in the log.
      const { company_slug, page_slug, version } = record;
      const page = requirePage(log, company_slug, page_slug);
      const scrape = sourceScrape(log, record);
      const streamId = streamIds.pricing(company_slug, page_slug, version);
      const [existing] = log.stream(streamId);
      if (existing) return sameOrConflict(record, existing);
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
    }
    case 'exchange_rate': {
      // A rate depends on no other record; like a scrape, it never changes once recorded.
      const { date, base, quote, rate } = record;
      const streamId = streamIds.exchangeRate(date, base, quote);
      const [existing] = log.stream(streamId);
      if (existing) return sameOrConflict(record, existing);
      return firstEventOf(
        record,
        origin,
        new ExchangeRateRecorded(streamId, { date, base, quote, rate }),
      );
    }
    default:
      return record satisfies never;
  }
}

/**
 * A company is registered once; a later record with another profile changes the profile (A, B,
 * then A again: each sending is judged against the log as it stands).
 */
function decideCompany(
  record: Extract<IngestRecord, { type: 'company' }>,
  log: LogView,
  origin: CommandOrigin,
): Decision {
  const profile: CompanyProfile = {
    slug: record.slug,
    name: record.name,
    category: record.category,
    employees: record.employees,
    url: record.url,
  };
  const streamId = streamIds.company(record.slug);
  const history = log.stream(streamId);
  const current = history.at(-1);
  if (current && canonicalJson(current.payload) === canonicalJson(profile)) {
    return { sameAs: current };
  }
  // The same job run again after another batch changed the profile: its own event stands.
  const ownEarlier = history.find(
    (event) =>
      log.before(event) &&
      writtenBy(event, { ...origin, batchId: null }) &&
      event.metadata.content_hash === recordContentHash(record),
  );
  if (ownEarlier) return { sameAs: ownEarlier };
  const version = current?.streamVersion ?? 0;
  return {
    event: current
      ? new CompanyProfileChanged(streamId, profile)
      : new CompanyRegistered(streamId, profile),
    expectedVersion: version,
    idempotencyKey: idempotencyKey(record, version + 1),
    metadata: metadataFor(record, origin),
  };
}

/**
 * Whether this sending appended `event` itself: an earlier run of the same job (killed after its
 * commit), or another record of the same batch; its record is then done, not a duplicate. Only
 * ids that name their sending count: the API's and `ingestChunkJobId`'s, never the numbers
 * BullMQ gives a job added without an id, which start again on an emptied Redis.
 */
export function writtenBy(event: DecodedEvent, origin: CommandOrigin): boolean {
  const { job_id, batch_id } = event.metadata;
  const namesItsSending = origin.jobId !== null && !/^\d+$/.test(origin.jobId);
  return (
    (namesItsSending && job_id === origin.jobId) ||
    (origin.batchId !== null && batch_id === origin.batchId)
  );
}

function metadataFor(record: IngestRecord, origin: CommandOrigin) {
  return {
    batch_id: origin.batchId,
    request_id: origin.requestId,
    job_id: origin.jobId,
    content_hash: recordContentHash(record),
  };
}

/** The append of `event` as the first event of a new stream, for an immutable record. */
function firstEventOf(
  record: IngestRecord,
  origin: CommandOrigin,
  event: RegisteredEvent,
): PendingAppend {
  return {
    event,
    expectedVersion: 0,
    idempotencyKey: idempotencyKey(record),
    metadata: metadataFor(record, origin),
  };
}

/**
 * An immutable record (page, scrape, extraction, exchange rate) whose stream already exists: the
 * same content is already recorded; other content is a conflict that names both versions, and
 * the first stays.
 */
function sameOrConflict(record: IngestRecord, existing: DecodedEvent): Decision {
  const incoming = recordContentHash(record);
  if (existing.metadata.content_hash === incoming) return { sameAs: existing };
  throw new RecordConflictError(
    `${record.type} ${naturalKey(record)} is already recorded with other content ` +
      `(sha256 ${existing.metadata.content_hash.slice(0, 16)}, event ${existing.seq}` +
      `${existing.metadata.batch_id ? `, batch ${existing.metadata.batch_id}` : ''}); ` +
      `this record has sha256 ${incoming.slice(0, 16)}. Recorded ${record.type}s never change: ` +
      'the first version stays.',
  );
}

function requireCompany(log: LogView, companySlug: string): void {
  if (!log.stream(streamIds.company(companySlug))[0]) {
    throw new DependencyMissingError(`company ${companySlug} is not known yet`);
  }
}

/** The page's registration, checked to belong to this company and sub-slug. */
function requirePage(
  log: LogView,
  companySlug: string,
  pageSlug: string,
): PricingPageRegisteredPayload {
  const page = pageRegistration(log.stream(streamIds.page(companySlug, pageSlug))[0]);
  if (!page || page.company_slug !== companySlug || page.page_slug !== pageSlug) {
    throw new DependencyMissingError(
      `pricing page ${companySlug}/${pageSlug} (sub-slug "${pageSlug}") is not known yet`,
    );
  }
  return page;
}

/** The registration a page's stream starts with (and holds alone). */
function pageRegistration(
  event: DecodedEvent | undefined,
): PricingPageRegisteredPayload | undefined {
  return event?.type === PricingPageRegistered.TYPE ? event.payload : undefined;
}

/** The named scraper's scrape of that version, or the first by scraper name. */
function sourceScrape(log: LogView, record: PricingRecord): SourceScrape {
  const { company_slug, page_slug, version, scraper } = record;
  const candidates = scraper
    ? log.stream(streamIds.scrape(company_slug, page_slug, version, scraper))
    : log.streamStarts(streamIds.scrapesOfVersion(company_slug, page_slug, version));
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
