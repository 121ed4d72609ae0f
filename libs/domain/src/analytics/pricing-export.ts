import type { PricingDocument } from '../pricing-document.js';
import { priceDocument, type PricedDocument } from './priced-document.js';

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

type CsvValue = string | number | boolean | null;

/**
 * The text of an export, from the documents of its extractions read a chunk at a time: one
 * string per chunk (the CSV header before them), so a writer that waits for each to drain holds
 * one chunk's text at most, however long the export.
 */
export async function* exportText(
  format: ExportFormat,
  chunks: AsyncIterable<PricingDocument[]>,
): AsyncGenerator<string> {
  if (format === 'csv') yield csvLine(EXPORT_CSV_COLUMNS);
  for await (const documents of chunks) {
    const priced = documents.map((document) => priceDocument(document).document);
    yield priced.map(format === 'csv' ? csvLines : ndjsonLine).join('');
  }
}

/** The document the pricing route gives for the extraction, on one line. */
function ndjsonLine(document: PricedDocument): string {
  return `${JSON.stringify(document)}\n`;
}

/** One line per charge of the document (a plan without charges has none). */
function csvLines(document: PricedDocument): string {
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
        ]),
      ),
    )
    .join('');
}

/**
 * RFC 4180: CRLF line ends; a field holding a comma, a quote or a line break is quoted, its
 * quotes doubled; null is an empty field, booleans `true`/`false`.
 */
function csvLine(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

function csvField(value: CsvValue): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
