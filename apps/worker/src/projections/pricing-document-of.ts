import {
  buildPricingDocument,
  type PricingDocument,
  type PricingExtractedPayload,
} from '#app/domain';

const built = new WeakMap<PricingExtractedPayload, PricingDocument>();

/**
 * The pricing document of an extraction, built once however many projectors need it: the
 * projectors of one batch share its events (one read of the log), and building a document
 * derives an id for each of its plans, charges, metrics and discounts. Kept only while the
 * event itself is. Callers must not change it.
 */
export function pricingDocumentOf(extraction: PricingExtractedPayload): PricingDocument {
  let document = built.get(extraction);
  if (!document) {
    document = buildPricingDocument(extraction);
    built.set(extraction, document);
  }
  return document;
}
