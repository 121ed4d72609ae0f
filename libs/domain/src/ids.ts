import { parse, v5 as uuidv5 } from 'uuid';

// Fixed namespace: changing it would change every id a client has ever seen. Parsed once: a
// rebuild derives ids by the million, and uuid would parse a text namespace on every call.
const NAMESPACE = parse('5b0c7a55-3f0e-4c2a-9d53-6f1d2b7c9e41');

/**
 * UUIDs derived from natural keys, so that rebuilding the read models from the event log
 * gives every page, scrape, plan, charge, metric and discount the id it had before.
 */
export const deterministicIds = {
  page: (companySlug: string, pageSlug: string) =>
    uuidv5(`page:${companySlug}/${pageSlug}`, NAMESPACE),
  scrape: (pageId: string, version: string, scraper: string) =>
    uuidv5(`scrape:${pageId}/${version}/${scraper}`, NAMESPACE),
  pricingSnapshot: (pageId: string, version: string) =>
    uuidv5(`pricing:${pageId}/${version}`, NAMESPACE),
  /** Child ids are positional within their parent: an extraction never changes after it is made. */
  child: (parentId: string, kind: 'plan' | 'charge' | 'metric' | 'discount', index: number) =>
    uuidv5(`${kind}:${parentId}/${index}`, NAMESPACE),
};
