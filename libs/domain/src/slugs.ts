/** A company slug: lower-case labels separated by dots, the last one usually a domain extension. */
export const COMPANY_SLUG =
  /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;
/** A page sub-slug: one label, or empty for the primary page. */
export const PAGE_SLUG = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)?$/;

/** The company slug without its domain extension (the part after the last dot). */
export function companySlugBase(companySlug: string): string {
  const lastDot = companySlug.lastIndexOf('.');
  return lastDot === -1 ? companySlug : companySlug.slice(0, lastDot);
}

/** `<company base>.<page>`, or the base alone for the primary (empty) page. */
export function compositePageSlug(companySlug: string, pageSlug: string): string {
  const base = companySlugBase(companySlug);
  return pageSlug === '' ? base : `${base}.${pageSlug}`;
}
