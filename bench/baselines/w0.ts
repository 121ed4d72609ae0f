/**
 * W0, the floor of writing read models: one connection doing multi-row INSERTs of rows shaped
 * like `scrape_files` (same columns, same primary key and unique index, same values a
 * projection writes) into a copy of that table, with no queue, no log and no projection.
 * What is left between W0 and a rebuild is reading the log and the projectors' own work.
 *
 * The next INSERT's rows are built while the database writes the last ones, so the figure is
 * the database's, not the generator's, as far as the machine allows.
 */
import type pg from 'pg';
import { deterministicIds } from '#app/domain';
import {
  syntheticCompany,
  syntheticPage,
  syntheticScrape,
  syntheticVersion,
  type SyntheticLogSpec,
} from '../support/synthetic-log.js';

/** Rows per INSERT. */
const ROWS_PER_INSERT = 2_000;
const TABLE = 'w0_scrape_files';
/** A catalogue as large as needed: rows are taken from it until there are enough. */
const SHAPE: SyntheticLogSpec = {
  companies: 1_000_000,
  pagesPerCompany: 2,
  versionsPerPage: 208,
  scrapersPerVersion: 4,
  pricingPerVersion: false,
};

const INSERT = `INSERT INTO ${TABLE} (id, page_id, company_slug, page_slug, version, scraper,
    page_url, screenshot_url, markdown_url, html_url, ocr_url, valid, score, banner_free,
    created_at, updated_at)
  SELECT r->>0, r->>1, r->>2, r->>3, r->>4, r->>5, r->>6, r->>7, r->>8, r->>9, r->>10,
    (r->>11)::boolean, (r->>12)::int, (r->>13)::boolean, r->>14, r->>14
  FROM json_array_elements($1::json) AS r`;

export interface W0Result {
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  rowsPerInsert: number;
}

/** Inserts `rows` scrape-file rows into a scratch copy of `scrape_files`, dropped afterwards. */
export async function runW0(pool: pg.Pool, rows: number): Promise<W0Result> {
  const client = await pool.connect();
  try {
    await client.query(`DROP TABLE IF EXISTS ${TABLE}`);
    await client.query(`CREATE TABLE ${TABLE} (LIKE scrape_files INCLUDING ALL)`);
    const chunks = scrapeFileChunks(rows);
    const started = performance.now();
    let inFlight: Promise<unknown> = Promise.resolve();
    for (const chunk of chunks) {
      await inFlight;
      inFlight = client.query(INSERT, [chunk]);
    }
    await inFlight;
    const seconds = (performance.now() - started) / 1000;
    const { rows: counted } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${TABLE}`,
    );
    if (counted[0]?.n !== rows) throw new Error(`W0 wrote ${counted[0]?.n} of ${rows} rows`);
    return { rows, seconds, rowsPerSecond: rows / seconds, rowsPerInsert: ROWS_PER_INSERT };
  } finally {
    await client.query(`DROP TABLE IF EXISTS ${TABLE}`).catch(() => undefined);
    client.release();
  }
}

/** JSON arrays of up to ROWS_PER_INSERT rows, built lazily: memory stays at one chunk. */
function* scrapeFileChunks(rows: number): Generator<string> {
  let chunk: unknown[][] = [];
  let made = 0;
  for (let pageNumber = 0; made < rows; pageNumber++) {
    const company = syntheticCompany(Math.floor(pageNumber / SHAPE.pagesPerCompany));
    const page = syntheticPage(company.slug, pageNumber % SHAPE.pagesPerCompany);
    const pageId = deterministicIds.page(page.company_slug, page.page_slug);
    for (let v = 0; v < SHAPE.versionsPerPage && made < rows; v++) {
      const version = syntheticVersion(SHAPE, pageNumber, v);
      for (let s = 0; s < SHAPE.scrapersPerVersion && made < rows; s++, made++) {
        const scrape = syntheticScrape(page, version, s);
        chunk.push([
          deterministicIds.scrape(pageId, version, scrape.scraper),
          pageId,
          scrape.company_slug,
          scrape.page_slug,
          version,
          scrape.scraper,
          scrape.page_url,
          scrape.screenshot_url,
          scrape.markdown_url,
          scrape.html_url,
          scrape.ocr_url,
          scrape.valid,
          scrape.score,
          scrape.banner_free,
          new Date(Date.UTC(2022, 0, 3, 6) + made).toISOString(),
        ]);
        if (chunk.length === ROWS_PER_INSERT) {
          yield JSON.stringify(chunk);
          chunk = [];
        }
      }
    }
  }
  if (chunk.length > 0) yield JSON.stringify(chunk);
}
