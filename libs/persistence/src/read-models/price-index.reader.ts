import { Injectable } from '@nestjs/common';
import { ReadDatabase } from '../replicas/read-database.js';
import { Statement } from '../sql.js';

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

/** Candidate rows a sample reads at a time: a few megabytes. */
const CHUNK_ROWS = 10_000;

/** One entry-price candidate of an extraction, with the days it is in force. */
export interface PriceIndexEntryRow {
  page_id: string;
  version: string;
  /** Null: the page's latest extraction. */
  until: string | null;
  currency: string;
  monthly: number;
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
   * The candidates of the selected extractions in force on any day of `range`, by page, version
   * and place, about CHUNK_ROWS at a time: a sample of every page over years is hundreds of
   * thousands of rows, of which a request holds one chunk (and what it has made of the others).
   * A page's rows all come from one statement, so from one state of the read model: a chunk
   * ends before the page its last row belongs to, which the next one reads whole (alone, when
   * it has more rows in the range than a chunk).
   */
  async *entries(
    range: InForceRange,
    selection: PriceIndexSelection,
  ): AsyncGenerator<PriceIndexEntryRow[]> {
    if (selection.pageIds?.length === 0) return;
    for (let after: string | undefined; ;) {
      const rows = await this.entryRows(range, selection, { after, limit: CHUNK_ROWS });
      if (rows.length < CHUNK_ROWS) {
        if (rows.length > 0) yield rows;
        return;
      }
      const last = rows.at(-1)!.page_id;
      const whole = rows.slice(
        0,
        rows.findIndex((row) => row.page_id === last),
      );
      if (whole.length > 0) {
        yield whole;
        after = whole.at(-1)!.page_id;
      } else {
        yield await this.entryRows(range, selection, { page: last });
        after = last;
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

  /** The rows of pages after `after` (at most `limit`), or of one `page`, in the reading order. */
  private entryRows(
    range: InForceRange,
    selection: PriceIndexSelection,
    window: { after?: string; limit: number } | { page: string },
  ): Promise<PriceIndexEntryRow[]> {
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
    return this.database.query<PriceIndexEntryRow>(
      `SELECT page_id, version, until, currency, monthly FROM price_index_entries
       WHERE ${on.join(' AND ')}
       ORDER BY page_id, version, entry_index ${limit}`,
      statement.parameters,
    );
  }
}
