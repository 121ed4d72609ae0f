import type { PricingDocument } from '../pricing-document.js';
import { pricingAnswer, type ConversionTarget, type PricedDocument } from './priced-document.js';

export const EXPORT_FORMATS = ['ndjson', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The media type of each format, as the export route sends it. */
export const EXPORT_MEDIA_TYPES: Record<ExportFormat, string> = {
  ndjson: 'application/x-ndjson',
  csv: 'text/csv; charset=utf-8',
};

/** The CSV export's columns, in order: one line per charge. */
export const EXPORT_CSV_COLUMNS = [
  'slug',
  'company_slug',
  'page_subslug',
  'version',
  'plan_internal_name',
  'plan_display_name',
  'add_on',
  'charge_display_name',
  'billing',
  'charge_type',
  'usage_type',
  'currency',
  'price',
  'monthly_equivalent',
  'modality',
] as const;

/** Columns a CSV export converting into a currency adds after those: the charge's `converted`. */
const EXPORT_CSV_CONVERTED_COLUMNS = [
  'converted_currency',
  'converted_monthly_equivalent',
  'rate',
  'rate_date',
] as const;

/** Converting an export: the target with the rates a chunk's documents need. */
export type ExportConversion = (documents: PricingDocument[]) => Promise<ConversionTarget>;

type CsvValue = string | number | boolean | null;

/**
 * The text of an export, from the documents of its extractions read a chunk at a time: one
 * string per document (its NDJSON line, or its CSV lines after the header), so a writer that
 * waits for each to drain holds one chunk's documents and a few of their texts, however long the
 * export. With `convert`, each chunk's rates are read for it (the rates of its own currencies,
 * never the whole table at once).
 */
export async function* exportText(
  format: ExportFormat,
  chunks: AsyncIterable<PricingDocument[]>,
  convert?: ExportConversion,
): AsyncGenerator<string> {
  if (format === 'csv') {
    yield csvLine(
      convert ? [...EXPORT_CSV_COLUMNS, ...EXPORT_CSV_CONVERTED_COLUMNS] : EXPORT_CSV_COLUMNS,
    );
  }
  for await (const documents of chunks) {
    const target = convert && (await convert(documents));
    for (const document of documents) {
      const answer = pricingAnswer(document, target);
      yield format === 'csv' ? csvLines(answer, target !== undefined) : ndjsonLine(answer);
    }
  }
}

/** The document the pricing route gives for the extraction, on one line. */
function ndjsonLine(document: PricedDocument): string {
  return `${JSON.stringify(document)}\n`;
}

/** One line per charge of the document (a plan without charges has none). */
function csvLines(document: PricedDocument, converted: boolean): string {
  return document.plans
    .flatMap((plan) =>
      plan.charges.map((charge) =>
        csvLine([
          document.slug,
          document.company_slug,
          document.page_subslug,
          document.version,
          plan.internal_name,
          plan.display_name,
          plan.add_on,
          charge.display_name,
          charge.billing,
          charge.charge_type,
          charge.usage_type,
          charge.currency,
          charge.price,
          charge.monthly_equivalent,
          charge.pricing_metric?.modality ?? null,
          ...(converted
            ? [
                charge.converted?.currency ?? null,
                charge.converted?.monthly_equivalent ?? null,
                charge.converted?.rate ?? null,
                charge.converted?.rate_date ?? null,
              ]
            : []),
        ]),
      ),
    )
    .join('');
}

/**
 * RFC 4180: CRLF line ends; a field holding a comma, a quote or a line break is quoted, its
 * quotes doubled; null is an empty field, booleans `true`/`false`. Text a spreadsheet would run
 * as a formula gets a leading `'` first, so a cell `'=1,2` is then quoted. A field holding a
 * semicolon or a tab is quoted too: a spreadsheet set to split on those (as some locales are)
 * would otherwise start a new cell there, `Pro;=1+1` becoming a formula of its own.
 */
function csvLine(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/**
 * What a spreadsheet takes for the start of a formula when it opens a CSV file (OWASP's list).
 * Captured names come from scraped pages, so a page could plant `=HYPERLINK(...)` in an analyst's
 * sheet; the `'` written before such text makes the spreadsheet show it rather than run it.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

function csvField(value: CsvValue): string {
  if (value === null) return '';
  // Only text: a negative number is a number, which a spreadsheet never runs.
  const text = typeof value === 'string' && FORMULA_START.test(value) ? `'${value}` : String(value);
  return /[",;\t\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
