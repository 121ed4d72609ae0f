import { isPriceChange, significancesFrom, type Significance } from '#app/domain';

/** What a webhook asked for; null in a field: no filter on it. */
export interface ChangeFilters {
  eventTypes: readonly string[] | null;
  companies: readonly string[] | null;
  /** Canonically spelled. */
  categories: readonly string[] | null;
  minSignificance: Significance | null;
  minChangePercent: number | null;
}

/** A change as the filters read it (a row of the change feed, with its company's category). */
export interface FilteredChange {
  eventType: string;
  companySlug: string;
  /** Undefined when the company is not known. */
  category: string | undefined;
  significance: Significance;
  changePercent: number | null;
}

/**
 * Whether a change passes every filter the webhook gave (all must hold). min_change_percent
 * judges price changes alone: one passes when its change_percent is at least that far from 0,
 * or when it has none (from 0, or a billing without a monthly equivalent), which counts as a
 * change of any size as its significance does (major); every other change passes it.
 */
export function passesFilters(filters: ChangeFilters, change: FilteredChange): boolean {
  const { eventTypes, companies, categories, minSignificance, minChangePercent } = filters;
  return (
    (!eventTypes || eventTypes.includes(change.eventType)) &&
    (!companies || companies.includes(change.companySlug)) &&
    (!categories || (change.category !== undefined && categories.includes(change.category))) &&
    (!minSignificance || significancesFrom(minSignificance).includes(change.significance)) &&
    (minChangePercent === null ||
      !isPriceChange(change.eventType) ||
      change.changePercent === null ||
      Math.abs(change.changePercent) >= minChangePercent)
  );
}
