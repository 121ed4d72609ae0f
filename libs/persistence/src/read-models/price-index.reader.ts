import { Injectable } from '@nestjs/common';
import { ReadDatabase } from '../replicas/read-database.js';
import { Statement, type Dialect } from '../sql.js';

/**
 * Which entries of the price index a sample takes: pages by their company's category or size
 * band, or by id; charges by billing or modality (a list matches any of its values, and all
 * filters hold).
 */
export interface PriceIndexSelection {
  categories?: readonly string[];
  employees?: readonly string[];
  pageIds?: readonly string[];
  billing?: readonly string[];
  modalities?: readonly string[];
}

/** The dates of a sample: the extractions in force on any day from `from` to `to`. */
export interface InForceRange {
  from: string;
  to: string;
}

/** Candidates a sample reads at a time: under a megabyte of text. */
export const PRICE_INDEX_CHUNK_CANDIDATES = 10_000;

/** An entry-price candidate as a sample reads it. */
export interface PriceIndexCandidate {
  currency: string;
  monthly: number;
}

/** An extraction in force on a day of the range, with its selected candidates. */
export interface PriceIndexExtraction {
  version: string;
  /** Null: the page's latest extraction. */
  until: string | null;
  candidates: PriceIndexCandidate[];
}

/** A page's selected extractions in force on a day of the range. */
export class PriceIndexPage {
  constructor(
    readonly pageId: string,
    /** How many candidates `text` holds. */
    readonly candidateCount: number,
    /** Its candidates as PriceIndexReader's statement writes them: `version,until,currency,monthly;...` */
    private readonly text: string,
  ) {}

  /**
   * Its extractions, oldest first, made when they are reached: the pages of a chunk stay text
   * until then, so a sample of thousands of candidates holds one page's objects at a time.
   */
  *extractions(): Generator<PriceIndexExtraction> {
    const rows = this.text
      .split(';')
      .map((row) => row.split(',') as [string, string, string, string]);
    // The statement's aggregate takes its rows in the chunk's order (by version), but SQL does
    // not promise it, and ordering inside the aggregate costs PostgreSQL more than this does.
    rows.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    let extraction: PriceIndexExtraction | undefined;
    for (const [version, until, currency, monthly] of rows) {
      if (extraction?.version !== version) {
        if (extraction) yield extraction;
        extraction = { version, until: until || null, candidates: [] };
      }
      extraction.candidates.push({ currency, monthly: Number(monthly) });
    }
    if (extraction) yield extraction;
  }
}

/** An extraction in force. */
export interface PriceIndexVersionRow {
  page_id: string;
  version: string;
}

/** An extraction of `version` is in force on a day of the range unless it ended before it began. */
function inForce(range: InForceRange, statement: Statement): string {
  const from = statement.parameter(range.from);
  return `version <= ${statement.parameter(range.to)} AND (until IS NULL OR until > ${from})`;
}

/**
 * The price index: entry-price candidates and extractions by the dates they are in force. The
 * projector writes an extraction's rows and moves its predecessor's end in one transaction, so
 * a reader never sees a page with two extractions in force on one day.
 */
@Injectable()
export class PriceIndexReader {
  constructor(private readonly database: ReadDatabase) {}

  /**
   * The pages with selected extractions in force on any day of `range`, by page, with about
   * `chunkCandidates` candidates at a time: a sample of every page over years is hundreds of thousands
   * of candidates, of which a request holds one chunk (and what it has made of the others). A
   * page's candidates all come from one statement, so from one state of the read model: a chunk
   * ends before the page its last candidate belongs to, which the next one reads whole (alone,
   * when it has more candidates in the range than a chunk).
   */
  async *pages(
    range: InForceRange,
    selection: PriceIndexSelection,
    chunkCandidates = PRICE_INDEX_CHUNK_CANDIDATES,
  ): AsyncGenerator<PriceIndexPage[]> {
    if (selection.pageIds?.length === 0) return;
    for (let after: string | undefined; ;) {
      const pages = await this.readPages(range, selection, { after, limit: chunkCandidates });
      const candidates = pages.reduce((sum, page) => sum + page.candidateCount, 0);
      if (candidates < chunkCandidates) {
        if (pages.length > 0) yield pages;
        return;
      }
      // The last page may go on past the limit: the next chunk reads it whole.
      const last = pages.pop()!;
      if (pages.length > 0) {
        yield pages;
        after = pages.at(-1)!.pageId;
      } else {
        yield await this.readPages(range, selection, { page: last.pageId });
        after = last.pageId;
      }
    }
  }

  /** The extraction of each of these pages in force on `date`, of those that have one. */
  versionsInForce(date: string, pageIds: readonly string[]): Promise<PriceIndexVersionRow[]> {
    if (pageIds.length === 0) return Promise.resolve([]);
    const statement = new Statement();
    const range = inForce({ from: date, to: date }, statement);
    return this.database.query<PriceIndexVersionRow>(
      `SELECT page_id, version FROM price_index_versions
       WHERE page_id IN (${statement.list(pageIds)}) AND ${range}`,
      statement.parameters,
    );
  }

  /** The pages of `window` (pagesStatement), each with its candidates as one line of text. */
  private async readPages(
    range: InForceRange,
    selection: PriceIndexSelection,
    window: PagesWindow,
  ): Promise<PriceIndexPage[]> {
    const { sql, parameters } = pagesStatement(this.database.dialect, range, selection, window);
    const rows = await this.database.query<{
      page_id: string;
      count: number | string;
      text: string;
    }>(sql, parameters);
    return rows.map((row) => new PriceIndexPage(row.page_id, Number(row.count), row.text));
  }
}

/** The pages after `after` with their first `limit` candidates, or one `page` with all of its own. */
export type PagesWindow = { after?: string; limit: number } | { page: string };

/**
 * The statement of PriceIndexReader.pages: the selected pages of `window`, by page, each with
 * how many candidates it has and the candidates as one line of text (`version,until,currency,
 * monthly;...`). A question reads thousands of candidates, and the database driver's cost is in
 * each row it parses (BENCHMARKS.md, the price index), so a page is one row. Ordered by page and
 * version alone, a sample within categories and bands is read from the filter index without the
 * table. Exported for the benchmark, which shows PostgreSQL's plan of it.
 */
export function pagesStatement(
  dialect: Dialect,
  range: InForceRange,
  selection: PriceIndexSelection,
  window: PagesWindow,
): { sql: string; parameters: unknown[] } {
  const statement = new Statement();
  const on = [inForce(range, statement)];
  const inList = (column: string, values: readonly unknown[] | undefined) => {
    if (values) on.push(`${column} IN (${statement.list(values)})`);
  };
  inList('category', selection.categories);
  inList('employees', selection.employees);
  inList('page_id', selection.pageIds);
  inList('billing', selection.billing);
  inList('modality', selection.modalities);
  let limit = '';
  if ('page' in window) on.push(`page_id = ${statement.parameter(window.page)}`);
  else {
    if (window.after !== undefined) on.push(`page_id > ${statement.parameter(window.after)}`);
    limit = `LIMIT ${statement.parameter(window.limit)}`;
  }
  // A double written exactly: PostgreSQL's shortest form; on SQLite 17 digits, which its printf
  // gives only with the `!` flag (16 at most without).
  const monthly = dialect === 'postgres' ? 'monthly::text' : "printf('%!.17g', monthly)";
  return {
    sql: `SELECT page_id, count(*) AS count,
         string_agg(version || ',' || coalesce(until, '') || ',' || currency || ',' || ${monthly},
                    ';') AS text
       FROM (SELECT page_id, version, until, currency, monthly FROM price_index_entries
             WHERE ${on.join(' AND ')}
             ORDER BY page_id, version ${limit}) AS chunk
       GROUP BY page_id ORDER BY page_id`,
    parameters: statement.parameters,
  };
}
