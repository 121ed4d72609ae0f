/**
 * A synthetic catalogue, as ingest records (for the ingestion scenario) or written straight
 * into the event log as the worker would have appended it (for the rebuild and scale
 * scenarios, where going through the queue would take hours).
 *
 * Every event is what the command handlers append for the same record: stream id and version,
 * type, schema version, payload, idempotency key and metadata with the content hash; a check
 * at the start compares the first record of each type with the domain's own functions.
 */
import { randomUUID } from 'node:crypto';
import {
  CATEGORIES,
  CompanyRegistered,
  ExchangeRateRecorded,
  PricingExtracted,
  PricingPageRegistered,
  ScrapeCaptured,
  compositePageSlug,
  deterministicIds,
  idempotencyKey,
  naturalKey,
  recordContentHash,
  sha256Hex,
  streamIds,
  type CompanyProfile,
  type CompanyRecord,
  type ExchangeRateRecord,
  type IngestRecord,
  type PageRecord,
  type PlanInput,
  type PricingExtractedPayload,
  type PricingPageRegisteredPayload,
  type PricingRecord,
  type ScrapeCapturedPayload,
  type ScrapeRecord,
} from '#app/domain';
import { ingestJobId } from '#app/contracts';
import type pg from 'pg';

export interface SyntheticLogSpec {
  companies: number;
  pagesPerCompany: number;
  versionsPerPage: number;
  /** Scrapes of each version; up to 4 matches the default SCRAPERS (scraper_1 ... scraper_4). */
  scrapersPerVersion: number;
  /** One extraction per page and version (from the version's first scrape). */
  pricingPerVersion: boolean;
  /** With pricingPerVersion, an extraction every this many versions only (default 1). */
  pricingEveryVersions?: number;
  /** An EUR to USD rate on the first of each month of the history (the EUR pages convert). */
  exchangeRates?: boolean;
}

export interface SyntheticLog {
  events: number;
  companySlugs: string[];
  pages: Array<{ companySlug: string; pageSlug: string }>;
  /** Earliest and latest version (YYYYMMDD) in the log. */
  firstVersion: string;
  lastVersion: string;
}

const DAY_MS = 86_400_000;
/** Versions are spread over four years from this Monday, so every quarter of 2022-2025 has data. */
const HISTORY_START_MS = Date.UTC(2022, 0, 3);
const HISTORY_DAYS = 4 * 365;
const HISTORY_MONTHS = 4 * 12;
const FILES_HOST = 'https://files.example-cdn.com';
const PREFIXES = ['acme', 'blue', 'cloud', 'data', 'echo', 'flux', 'grid', 'hive', 'iron', 'jet'];
const SUFFIXES = ['ly', 'hub', 'stack', 'forge', 'desk', 'flow', 'base', 'wise'];
const TLDS = ['io', 'com', 'app', 'dev', 'co', 'ai'];
const EXTRA_PAGES = ['enterprise', 'teams', 'api', 'startups'];
const BANDS = ['1-10', '11-50', '51-200', '51-200', '201-500', '201-500', '501-1000', '1000+'];

/** Events the spec gives: companies, pages, scrapes, extractions and rates. */
export function syntheticEventCount(spec: SyntheticLogSpec): number {
  const pages = spec.companies * spec.pagesPerCompany;
  const scrapes = pages * spec.versionsPerPage * spec.scrapersPerVersion;
  const rates = spec.exchangeRates ? HISTORY_MONTHS : 0;
  return spec.companies + pages + scrapes + syntheticExtractionCount(spec) + rates;
}

/** Extractions the spec gives. */
export function syntheticExtractionCount(spec: SyntheticLogSpec): number {
  if (!spec.pricingPerVersion || spec.scrapersPerVersion === 0) return 0;
  const pages = spec.companies * spec.pagesPerCompany;
  return pages * Math.ceil(spec.versionsPerPage / (spec.pricingEveryVersions ?? 1));
}

/** Whether the page's `index`th version has an extraction. */
function extracted(spec: SyntheticLogSpec, index: number): boolean {
  return (
    spec.pricingPerVersion &&
    spec.scrapersPerVersion > 0 &&
    index % (spec.pricingEveryVersions ?? 1) === 0
  );
}

export function syntheticCompany(index: number): CompanyRecord {
  const word = `${PREFIXES[index % PREFIXES.length]}${SUFFIXES[Math.floor(index / PREFIXES.length) % SUFFIXES.length]}`;
  const number = String(index).padStart(6, '0');
  const slug = `${word}-${number}.${TLDS[index % TLDS.length]}`;
  return {
    type: 'company',
    slug,
    name: `${word[0]?.toUpperCase()}${word.slice(1)} ${number}`,
    category: CATEGORIES[index % CATEGORIES.length] as string,
    // Independent of the category, so that the two filters combine.
    employees: BANDS[Math.floor(index / CATEGORIES.length) % BANDS.length] as string,
    url: `https://${slug}`,
  };
}

/** Page `index` of a company: the first is the primary page (empty sub-slug). */
export function syntheticPage(companySlug: string, index: number): PageRecord {
  const pageSlug =
    index === 0 ? '' : (EXTRA_PAGES[index - 1] ?? `plans-${index - EXTRA_PAGES.length}`);
  return {
    type: 'page',
    company_slug: companySlug,
    page_slug: pageSlug,
    pricing_page_url: `https://${companySlug}/pricing${pageSlug ? `/${pageSlug}` : ''}`,
  };
}

/**
 * The version (YYYYMMDD) of a page's `index`th scrape: evenly spread over four years, each page
 * on its own weekday so that versions differ between pages.
 */
export function syntheticVersion(spec: SyntheticLogSpec, pageNumber: number, index: number) {
  const step = Math.max(1, Math.floor(HISTORY_DAYS / spec.versionsPerPage));
  return versionOnDay(index * step + (pageNumber % step));
}

/** The version (YYYYMMDD) of the history's `day`th day. */
function versionOnDay(day: number): string {
  return new Date(HISTORY_START_MS + day * DAY_MS).toISOString().slice(0, 10).replaceAll('-', '');
}

export function syntheticScrape(page: PageRecord, version: string, scraper: number): ScrapeRecord {
  const base = `${FILES_HOST}/${compositePageSlug(page.company_slug, page.page_slug)}/${version}/scraper_${scraper + 1}`;
  return {
    type: 'scrape',
    company_slug: page.company_slug,
    page_slug: page.page_slug,
    version,
    page_url: page.pricing_page_url,
    screenshot_url: `${base}.png`,
    markdown_url: `${base}.md`,
    html_url: `${base}.html`,
    ocr_url: scraper % 2 === 0 ? null : `${base}.txt`,
    scraper: `scraper_${scraper + 1}`,
    valid: version.charCodeAt(7) % 10 !== 0,
    score: (version.charCodeAt(7) + scraper) % 11,
    banner_free: scraper % 3 !== 2,
  };
}

/** The EUR to USD rate of the history's `month`th month, on its first day: 1.05 to 1.16. */
export function syntheticExchangeRate(month: number): ExchangeRateRecord {
  const first = new Date(Date.UTC(2022, month, 1));
  return {
    type: 'exchange_rate',
    date: first.toISOString().slice(0, 10).replaceAll('-', ''),
    base: 'EUR',
    quote: 'USD',
    rate: 1.05 + (month % 12) / 100,
  };
}

/** Three plans whose prices rise every year, from the version's first scrape. */
export function syntheticPricing(page: PageRecord, version: string, companyIndex: number) {
  const year = Number(version.slice(0, 4)) - 2022;
  const pro = 8 + (companyIndex % 5) * 2 + year * 2;
  const currency = companyIndex % 4 === 3 ? 'EUR' : 'USD';
  const plans: PlanInput[] = [
    {
      display_name: 'Free',
      internal_name: 'free',
      add_on: false,
      charges: [
        {
          billing: 'freemium',
          currency,
          price: 0,
          charge_type: 'flat',
          pricing_metric: null,
          display_name: 'Free',
          price_display: 'Free forever',
        },
      ],
      discounts: [],
    },
    {
      display_name: 'Pro',
      internal_name: 'pro',
      add_on: false,
      charges: [
        {
          billing: 'monthly_recurring_billed_monthly',
          currency,
          price: pro,
          charge_type: 'per_unit',
          pricing_metric: { display_name: 'per user', modality: 'user_based' },
          usage_type: 'licensed',
          display_name: 'Pro',
          price_display: `${currency === 'EUR' ? '€' : '$'}${pro}/user/month`,
        },
      ],
      discounts: [
        {
          discount_category: 'annual',
          amount_type: 'percentage',
          amount: 20,
          description: 'Save 20% with annual billing',
          duration: 'forever',
        },
      ],
    },
    {
      display_name: 'Enterprise',
      internal_name: 'enterprise',
      add_on: false,
      charges: [
        {
          billing: 'pricing_not_disclosed',
          currency,
          price: null,
          charge_type: 'contact',
          pricing_metric: null,
          display_name: 'Enterprise',
          price_display: 'Contact sales',
        },
      ],
      discounts: [],
    },
  ];
  const record: PricingRecord = {
    type: 'pricing',
    company_slug: page.company_slug,
    page_slug: page.page_slug,
    version,
    scraper: 'scraper_1',
    plans,
  };
  return record;
}

/**
 * Every record of the spec, in an order the worker can apply as it goes: companies, then
 * pages, then each page's versions, every extraction right after its scrapes.
 */
export function* syntheticRecords(spec: SyntheticLogSpec): Generator<IngestRecord> {
  for (let c = 0; c < spec.companies; c++) yield syntheticCompany(c);
  for (let c = 0; c < spec.companies; c++) {
    const { slug } = syntheticCompany(c);
    for (let p = 0; p < spec.pagesPerCompany; p++) yield syntheticPage(slug, p);
  }
  for (const { page, pageNumber, companyIndex } of allPages(spec)) {
    for (let v = 0; v < spec.versionsPerPage; v++) {
      const version = syntheticVersion(spec, pageNumber, v);
      yield* versionRecords(spec, page, version, companyIndex, v);
    }
  }
}

/**
 * What a pipeline sends after the spec's history, for as long as it is asked: a version of
 * every page each day after the four years of history (so the dates last for millions of
 * records), its scrapes followed by its extraction. No record repeats another or the history's.
 */
export function* laterRecords(spec: SyntheticLogSpec): Generator<IngestRecord> {
  for (let v = spec.versionsPerPage; ; v++) {
    const version = versionOnDay(HISTORY_DAYS + v - spec.versionsPerPage);
    for (const { page, companyIndex } of allPages(spec)) {
      yield* versionRecords(spec, page, version, companyIndex, v);
    }
  }
}

/** The scrapes of a page's `index`th version, `version`, then its extraction if it has one. */
function* versionRecords(
  spec: SyntheticLogSpec,
  page: PageRecord,
  version: string,
  companyIndex: number,
  index: number,
): Generator<IngestRecord> {
  for (let s = 0; s < spec.scrapersPerVersion; s++) yield syntheticScrape(page, version, s);
  if (extracted(spec, index)) yield syntheticPricing(page, version, companyIndex);
}

function* allPages(spec: SyntheticLogSpec) {
  let pageNumber = 0;
  for (let c = 0; c < spec.companies; c++) {
    const { slug } = syntheticCompany(c);
    for (let p = 0; p < spec.pagesPerCompany; p++) {
      yield { page: syntheticPage(slug, p), pageNumber: pageNumber++, companyIndex: c };
    }
  }
}

/** The batch and request a record came in with, as the API would have given them. */
interface Origin {
  batchId: string;
  requestId: string;
}

/** One row of the events table, in its columns (seq and transaction_id come from defaults). */
interface EventRow {
  streamId: string;
  streamVersion: number;
  type: string;
  payload: string;
  metadata: string;
  idempotencyKey: string;
  recordedAt: string;
}

/**
 * The content hash, idempotency key and job id of a record, computed from one hash (the
 * domain's functions each recompute it: three times the work on ten million rows).
 */
function keysOf(record: IngestRecord, batchId: string, streamVersion?: number) {
  const hash = recordContentHash(record);
  const key = naturalKey(record);
  const idempotency = `${record.type}:${sha256Hex(key).slice(0, 32)}:${hash}`;
  return {
    hash,
    idempotencyKey: streamVersion === undefined ? idempotency : `${idempotency}@${streamVersion}`,
    jobId: `${record.type}-${sha256Hex(`${record.type}\n${key}`).slice(0, 24)}-${hash.slice(0, 24)}-${batchId}`,
  };
}

/** Fails loudly if the shortcut above ever drifts from the domain's definitions. */
function checkKeys(record: IngestRecord, streamVersion?: number): void {
  const batchId = randomUUID();
  const keys = keysOf(record, batchId, streamVersion);
  if (
    keys.idempotencyKey !== idempotencyKey(record, streamVersion) ||
    keys.jobId !== ingestJobId(record, batchId)
  ) {
    throw new Error(`synthetic log: the keys of a ${record.type} record differ from the domain's`);
  }
}

function eventRow(
  record: IngestRecord,
  streamId: string,
  type: string,
  payload: unknown,
  recordedAt: number,
  origin: Origin,
  /** A company's idempotency key names the stream version it creates. */
  keyedVersion?: number,
): EventRow {
  const keys = keysOf(record, origin.batchId, keyedVersion);
  return {
    streamId,
    streamVersion: 1,
    type,
    payload: JSON.stringify(payload),
    metadata: JSON.stringify({
      batch_id: origin.batchId,
      request_id: origin.requestId,
      job_id: keys.jobId,
      content_hash: keys.hash,
    }),
    idempotencyKey: keys.idempotencyKey,
    recordedAt: new Date(recordedAt).toISOString(),
  };
}

/** The events of the spec, as the handlers build them, with recorded_at spread over the history. */
function* syntheticEvents(spec: SyntheticLogSpec, originOf: () => Origin): Generator<EventRow> {
  const registeredAt = HISTORY_START_MS - 7 * DAY_MS;
  for (let c = 0; c < spec.companies; c++) {
    const record = syntheticCompany(c);
    if (c === 0) checkKeys(record, 1);
    const { type: _type, ...profile } = record;
    yield eventRow(
      record,
      streamIds.company(record.slug),
      CompanyRegistered.TYPE,
      profile satisfies CompanyProfile,
      registeredAt + c,
      originOf(),
      1,
    );
  }
  for (const { page, pageNumber } of allPages(spec)) {
    if (pageNumber === 0) checkKeys(page);
    const payload: PricingPageRegisteredPayload = {
      page_id: deterministicIds.page(page.company_slug, page.page_slug),
      company_slug: page.company_slug,
      page_slug: page.page_slug,
      composite_slug: compositePageSlug(page.company_slug, page.page_slug),
      pricing_page_url: page.pricing_page_url,
    };
    yield eventRow(
      page,
      streamIds.page(page.company_slug, page.page_slug),
      PricingPageRegistered.TYPE,
      payload,
      registeredAt + DAY_MS + pageNumber,
      originOf(),
    );
  }
  // Rates depend on nothing: after the registrations, which must be committed first (below).
  for (let month = 0; spec.exchangeRates && month < HISTORY_MONTHS; month++) {
    const record = syntheticExchangeRate(month);
    if (month === 0) checkKeys(record);
    const { type: _type, ...rate } = record;
    yield eventRow(
      record,
      streamIds.exchangeRate(record.date, record.base, record.quote),
      ExchangeRateRecorded.TYPE,
      rate,
      registeredAt + month,
      originOf(),
    );
  }
  for (const { page, pageNumber, companyIndex } of allPages(spec)) {
    const pageId = deterministicIds.page(page.company_slug, page.page_slug);
    const compositeSlug = compositePageSlug(page.company_slug, page.page_slug);
    for (let v = 0; v < spec.versionsPerPage; v++) {
      const version = syntheticVersion(spec, pageNumber, v);
      // Scrapes arrive in the morning of their day, a minute apart; extractions at noon.
      const day = Date.UTC(+version.slice(0, 4), +version.slice(4, 6) - 1, +version.slice(6, 8));
      const morning = day + 6 * 3_600_000 + (pageNumber % 3_600) * 1_000;
      let first: { payload: ScrapeCapturedPayload; recordedAt: number } | null = null;
      for (let s = 0; s < spec.scrapersPerVersion; s++) {
        const scrape = syntheticScrape(page, version, s);
        if (pageNumber === 0 && v === 0 && s === 0) checkKeys(scrape);
        // The handler's field order, so the stored JSON is the same text.
        const payload: ScrapeCapturedPayload = {
          scrape_id: deterministicIds.scrape(pageId, version, scrape.scraper),
          page_id: pageId,
          company_slug: scrape.company_slug,
          page_slug: scrape.page_slug,
          version,
          scraper: scrape.scraper,
          page_url: scrape.page_url,
          screenshot_url: scrape.screenshot_url,
          markdown_url: scrape.markdown_url,
          html_url: scrape.html_url,
          ocr_url: scrape.ocr_url,
          valid: scrape.valid,
          score: scrape.score,
          banner_free: scrape.banner_free,
        };
        const recordedAt = morning + s * 60_000;
        first ??= { payload, recordedAt };
        yield eventRow(
          scrape,
          streamIds.scrape(page.company_slug, page.page_slug, version, scrape.scraper),
          ScrapeCaptured.TYPE,
          payload,
          recordedAt,
          originOf(),
        );
      }
      if (!extracted(spec, v) || !first) continue;
      const pricing = syntheticPricing(page, version, companyIndex);
      if (pageNumber === 0 && v === 0) checkKeys(pricing);
      const payload: PricingExtractedPayload = {
        snapshot_id: deterministicIds.pricingSnapshot(pageId, version),
        page_id: pageId,
        company_slug: page.company_slug,
        page_slug: page.page_slug,
        composite_slug: compositeSlug,
        version,
        scrape: {
          id: first.payload.scrape_id,
          scraper: first.payload.scraper,
          version,
          page_url: first.payload.page_url,
          captured_at: new Date(first.recordedAt).toISOString(),
        },
        plans: pricing.plans,
      };
      yield eventRow(
        pricing,
        streamIds.pricing(page.company_slug, page.page_slug, version),
        PricingExtracted.TYPE,
        payload,
        day + 12 * 3_600_000 + (pageNumber % 3_600) * 1_000,
        originOf(),
      );
    }
  }
}

/** Rows per INSERT: large enough to amortise the round trip, small enough to stream. */
const CHUNK_ROWS = 5_000;
/** INSERTs in flight, each on its own connection, while the next chunk is generated. */
const WRITERS = 2;
/** Records per synthetic ingest batch (the API's maximum), for metadata.batch_id. */
const BATCH_RECORDS = 1_000;

// One JSON parameter per chunk: JSON.stringify is native, while pg's text-array encoding
// escapes every element in JavaScript (a fifth slower on payload-sized strings).
const INSERT = `INSERT INTO events
  (stream_id, stream_version, type, schema_version, payload, metadata, idempotency_key, recorded_at)
  SELECT row->>0, (row->>1)::int, row->>2, 1, row->>3, row->>4, row->>5, (row->>6)::timestamptz
  FROM json_array_elements($1::json) AS row`;

/**
 * Writes the spec's events into `events` in chunks of multi-row INSERTs, each its own
 * transaction, generating the next chunk while the database writes the last ones; memory stays
 * at a few chunks whatever the size. Into an empty log, the secondary indexes are dropped
 * first and built again at the end from their own definitions (ten million random inserts
 * into the idempotency-key index would take far longer than one sort), and the table analysed.
 * Should a write fail, the schema is left without them: the caller drops it.
 */
export async function writeSyntheticLog(
  pool: pg.Pool,
  spec: SyntheticLogSpec,
  onProgress?: (events: number) => void,
): Promise<SyntheticLog> {
  let records = 0;
  let origin = { batchId: randomUUID(), requestId: randomUUID() };
  const originOf = () => {
    if (records > 0 && records % BATCH_RECORDS === 0) {
      origin = { batchId: randomUUID(), requestId: randomUUID() };
    }
    records++;
    return origin;
  };
  const writers = await Promise.all(Array.from({ length: WRITERS }, () => pool.connect()));
  let written = 0;
  try {
    // A bench loader, not the service: losing the last commits in a crash costs nothing here.
    for (const writer of writers) await writer.query('SET synchronous_commit = off');
    // Sorts the rebuilt indexes in memory rather than in temporary files.
    await writers[0]?.query("SET maintenance_work_mem = '512MB'");
    const indexes = await dropSecondaryIndexes(writers[0] as pg.PoolClient);
    const idle = [...writers];
    const running = new Set<Promise<void>>();
    const write = async (chunk: string) => {
      while (idle.length === 0) await Promise.race(running);
      const writer = idle.pop() as pg.PoolClient;
      const insert = writer
        .query(INSERT, [chunk])
        .then((result) => {
          written += result.rowCount ?? 0;
          onProgress?.(written);
        })
        .finally(() => {
          idle.push(writer);
          running.delete(insert);
        });
      running.add(insert);
      // A failure is rethrown by Promise.all below or by the race above.
      insert.catch(() => undefined);
    };
    let chunk: unknown[][] = [];
    let registering = true;
    for (const row of syntheticEvents(spec, originOf)) {
      // The parallel writers' transactions commit in any order, and projection follows commit
      // order: the registrations are committed before any scrape or extraction, as the
      // service's own rules make sure (an extraction's page, and its company, exist first).
      if (
        registering &&
        row.type !== CompanyRegistered.TYPE &&
        row.type !== PricingPageRegistered.TYPE
      ) {
        if (chunk.length > 0) await write(JSON.stringify(chunk));
        chunk = [];
        await Promise.all(running);
        registering = false;
      }
      chunk.push([
        row.streamId,
        row.streamVersion,
        row.type,
        row.payload,
        row.metadata,
        row.idempotencyKey,
        row.recordedAt,
      ]);
      if (chunk.length >= CHUNK_ROWS) {
        await write(JSON.stringify(chunk));
        chunk = [];
      }
    }
    if (chunk.length > 0) await write(JSON.stringify(chunk));
    await Promise.all(running);
    const writer = writers[0] as pg.PoolClient;
    for (const definition of indexes) await writer.query(definition);
    await writer.query('ANALYZE events');
  } finally {
    for (const writer of writers) {
      await writer
        .query('RESET synchronous_commit; RESET maintenance_work_mem')
        .catch(() => undefined);
      writer.release();
    }
  }

  const companySlugs = Array.from({ length: spec.companies }, (_, c) => syntheticCompany(c).slug);
  const pages = [...allPages(spec)].map(({ page }) => ({
    companySlug: page.company_slug,
    pageSlug: page.page_slug,
  }));
  // Pages differ only by their weekday offset (page number modulo the step between versions).
  const step = Math.max(1, Math.floor(HISTORY_DAYS / spec.versionsPerPage));
  const versions = Array.from({ length: Math.min(pages.length, step) }, (_, p) => [
    syntheticVersion(spec, p, 0),
    syntheticVersion(spec, p, spec.versionsPerPage - 1),
  ]);
  return {
    events: written,
    companySlugs,
    pages,
    firstVersion: versions.map(([first]) => first as string).sort()[0] ?? '',
    lastVersion:
      versions
        .map(([, last]) => last as string)
        .sort()
        .at(-1) ?? '',
  };
}

/**
 * When the log is empty, drops its indexes and unique constraints other than the primary key
 * and returns the statements that recreate them exactly; otherwise changes nothing.
 */
async function dropSecondaryIndexes(client: pg.PoolClient): Promise<string[]> {
  const { rows: any } = await client.query('SELECT 1 FROM events LIMIT 1');
  if (any.length > 0) return [];
  const { rows: constraints } = await client.query<{ name: string; definition: string }>(
    `SELECT conname AS name, pg_get_constraintdef(oid) AS definition FROM pg_constraint
     WHERE conrelid = 'events'::regclass AND contype = 'u'`,
  );
  const { rows: indexes } = await client.query<{ name: string; definition: string }>(
    `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS definition
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
     WHERE x.indrelid = 'events'::regclass AND NOT x.indisprimary
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`,
  );
  const recreate: string[] = [];
  for (const { name, definition } of constraints) {
    await client.query(`ALTER TABLE events DROP CONSTRAINT "${name}"`);
    recreate.push(`ALTER TABLE events ADD CONSTRAINT "${name}" ${definition}`);
  }
  for (const { name, definition } of indexes) {
    await client.query(`DROP INDEX "${name}"`);
    recreate.push(definition);
  }
  return recreate;
}
