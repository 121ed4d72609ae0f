import { COMPANY_SLUG, OPEN_IDENTIFIER, PAGE_SLUG, VALUE_PATTERNS } from '#app/domain';
import { COMPANY_SORT_COLUMNS, type CompanySortField } from '#app/persistence';

/**
 * Patterns the OpenAPI document states for parameters and fields. They describe the values the
 * service accepts as valid; a value outside them gets the route's documented 400 (or 404).
 */
export const PATTERNS = {
  ...VALUE_PATTERNS,
  uuid: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
  companySlug: COMPANY_SLUG.source,
  pageSlug: PAGE_SLUG.source,
  identifier: OPEN_IDENTIFIER.source,
  /** A change feed position, as the feed hands it out (base64url). */
  cursor: '^[A-Za-z0-9_-]+$',
} as const;

/** The fields `sort` accepts, from the same table the query uses. */
export const SORT_FIELDS = Object.keys(COMPANY_SORT_COLUMNS) as CompanySortField[];
