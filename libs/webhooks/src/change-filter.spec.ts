import { describe, expect, it } from 'vitest';
import { passesFilters, type ChangeFilters, type FilteredChange } from './change-filter.js';

const NONE: ChangeFilters = {
  eventTypes: null,
  companies: null,
  categories: null,
  minSignificance: null,
  minChangePercent: null,
};

const change = (overrides: Partial<FilteredChange> = {}): FilteredChange => ({
  eventType: 'price_increased',
  companySlug: 'alpha.io',
  category: 'Finance',
  significance: 'moderate',
  changePercent: 10,
  ...overrides,
});

describe('passesFilters', () => {
  it('lets every change through a webhook without filters', () => {
    for (const each of [
      change(),
      change({ eventType: 'discount_changed', significance: 'minor', changePercent: null }),
      change({ category: undefined }),
    ]) {
      expect(passesFilters(NONE, each)).toBe(true);
    }
  });

  it('keeps the listed event types, companies and categories', () => {
    expect(passesFilters({ ...NONE, eventTypes: ['plan_added'] }, change())).toBe(false);
    expect(passesFilters({ ...NONE, eventTypes: ['price_increased'] }, change())).toBe(true);
    expect(passesFilters({ ...NONE, companies: ['beta.io'] }, change())).toBe(false);
    expect(passesFilters({ ...NONE, companies: ['beta.io', 'alpha.io'] }, change())).toBe(true);
    expect(passesFilters({ ...NONE, categories: ['HR'] }, change())).toBe(false);
    expect(passesFilters({ ...NONE, categories: ['HR', 'Finance'] }, change())).toBe(true);
    // A company whose category is not known is in none of them.
    expect(
      passesFilters({ ...NONE, categories: ['Finance'] }, change({ category: undefined })),
    ).toBe(false);
  });

  it('keeps the changes of the least significance or more', () => {
    const at = (significance: FilteredChange['significance']) => change({ significance });
    const moderate = { ...NONE, minSignificance: 'moderate' as const };
    expect(
      [at('minor'), at('moderate'), at('major')].map((each) => passesFilters(moderate, each)),
    ).toEqual([false, true, true]);
    const major = { ...NONE, minSignificance: 'major' as const };
    expect(passesFilters(major, at('moderate'))).toBe(false);
    expect(passesFilters({ ...NONE, minSignificance: 'minor' }, at('minor'))).toBe(true);
  });

  it('min_change_percent: price changes at least that large either way, and every other change', () => {
    const atLeast10 = { ...NONE, minChangePercent: 10 };
    expect(passesFilters(atLeast10, change({ changePercent: 10 }))).toBe(true);
    expect(passesFilters(atLeast10, change({ changePercent: 9.99 }))).toBe(false);
    expect(
      passesFilters(atLeast10, change({ eventType: 'price_decreased', changePercent: -12.5 })),
    ).toBe(true);
    expect(
      passesFilters(atLeast10, change({ eventType: 'price_decreased', changePercent: -9.99 })),
    ).toBe(false);
    // Without a change_percent (from 0, or no monthly equivalent) a price change passes.
    expect(passesFilters(atLeast10, change({ changePercent: null }))).toBe(true);
    expect(
      passesFilters(
        atLeast10,
        change({ eventType: 'charge_changed', significance: 'major', changePercent: null }),
      ),
    ).toBe(true);
  });

  it('needs every filter given to hold', () => {
    const all: ChangeFilters = {
      eventTypes: ['price_increased'],
      companies: ['alpha.io'],
      categories: ['Finance'],
      minSignificance: 'moderate',
      minChangePercent: 5,
    };
    expect(passesFilters(all, change())).toBe(true);
    for (const failing of [
      change({ eventType: 'price_decreased' }),
      change({ companySlug: 'beta.io' }),
      change({ category: 'HR' }),
      change({ significance: 'minor' }),
      change({ changePercent: 4 }),
    ]) {
      expect(passesFilters(all, failing)).toBe(false);
    }
  });
});
