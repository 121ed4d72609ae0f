import { Injectable } from '@nestjs/common';
import { ReadDatabase } from '../replicas/read-database.js';
import { Statement } from '../sql.js';

/** What a plan search is filtered by; a list matches any of its values, and all filters hold. */
export interface PlanSearchFilters {
  categories?: string[];
  employees?: string[];
  companies?: string[];
  /** The plan has a discount of one of these categories. */
  discountCategories?: string[];
  addOn?: boolean;
  /** The plan has a charge billed freemium or priced 0. */
  freeTier?: boolean;
  /** Bounds of the page's number of plans. */
  minPlans?: number;
  maxPlans?: number;
  /** Charge filters: one and the same charge of the plan meets all of them. */
  billing?: string[];
  chargeTypes?: string[];
  modalities?: string[];
  usageTypes?: string[];
  priceCurrencies?: string[];
  minMonthly?: number;
  maxMonthly?: number;
  /**
   * The currency min_monthly, max_monthly and the monthly sort compare in, each charge converted
   * at the rate of its version; without it, each charge's own currency.
   */
  currency?: string;
}

export interface PlanSearchOrder {
  sort: 'company' | 'monthly';
  descending: boolean;
}

/** One plan found, with its page and company; `plan` is the plan's JSON text as stored. */
export interface PlanSearchRow {
  company_slug: string;
  company_name: string;
  category: string;
  composite_slug: string;
  version: string;
  plan: string;
}

/**
 * The rate that turns the charge `c` into the currency `$currency` at its version: 1 in that
 * currency; else the latest rate dated on or before the version of base=charge currency,
 * quote=target (multiply), or only when there is none, of base=target, quote=charge currency
 * (divide); null without either (ExchangeRateBook.rateFor says the same in the domain).
 */
function rateOf(currency: string): string {
  const latest = (base: string, quote: string) =>
    `(SELECT r.rate FROM exchange_rates r WHERE r.base = ${base} AND r.quote = ${quote}` +
    ` AND r.date <= c.version ORDER BY r.date DESC LIMIT 1)`;
  return (
    `CASE WHEN c.currency = ${currency} THEN 1.0 ELSE COALESCE(` +
    `${latest('c.currency', currency)}, 1.0 / ${latest(currency, 'c.currency')}) END`
  );
}

/**
 * Plan search over the plan-search read model: every filter is a condition on the plan row or
 * an EXISTS on its charges or discounts, and each sort is read in order from its index.
 */
@Injectable()
export class PlanSearchReader {
  constructor(private readonly database: ReadDatabase) {}

  /**
   * The plans matching `filters` in `order`, `limit` from `offset`. The page is chosen on the
   * sort's keys alone (from an index, for a search within categories and bands), and only its
   * own rows are then read whole.
   */
  page(
    filters: PlanSearchFilters,
    order: PlanSearchOrder,
    window: { limit: number; offset: number },
  ): Promise<PlanSearchRow[]> {
    const statement = new Statement();
    const direction = order.descending ? 'DESC' : 'ASC';
    let keys: string;
    let sortedBy: (table: string) => string;
    if (order.sort === 'company') {
      keys = 'p.company_name_key';
      sortedBy = (t) => `${t}.company_name_key ${direction}`;
    } else if (filters.currency === undefined) {
      keys = 'p.monthly_missing, p.lowest_monthly';
      sortedBy = (t) => `${t}.monthly_missing, ${t}.lowest_monthly ${direction}`;
    } else {
      // Each plan's lowest monthly equivalent once converted, worked out for every match.
      const currency = statement.parameter(filters.currency);
      keys =
        `(SELECT MIN(c.monthly_equivalent * ${rateOf(currency)}) FROM plan_search_charges c` +
        ' WHERE c.page_id = p.page_id AND c.plan_index = p.plan_index) AS converted_lowest';
      sortedBy = (t) => `${t}.converted_lowest IS NULL, ${t}.converted_lowest ${direction}`;
    }
    const ordered = (t: string) =>
      `${sortedBy(t)}, ${t}.composite_slug, ${t}.internal_name, ${t}.plan_index`;
    const where = conditions(filters, statement);
    const sql = `SELECT p.company_slug, p.company_name, p.category, p.composite_slug, p.version,
        p.plan
      FROM (
        SELECT * FROM (
          SELECT p.page_id, p.plan_index, p.composite_slug, p.internal_name, ${keys}
          FROM plan_search_plans p ${where}
        ) m
        ORDER BY ${ordered('m')}
        LIMIT ${statement.parameter(window.limit)} OFFSET ${statement.parameter(window.offset)}
      ) k
      JOIN plan_search_plans p ON p.page_id = k.page_id AND p.plan_index = k.plan_index
      ORDER BY ${ordered('k')}`;
    return this.read(sql, statement.parameters);
  }

  /** How many plans match `filters`. */
  async count(filters: PlanSearchFilters): Promise<number> {
    const statement = new Statement();
    const where = conditions(filters, statement);
    const [row] = await this.read<{ total: number | string }>(
      `SELECT COUNT(*) AS total FROM plan_search_plans p ${where}`,
      statement.parameters,
    );
    return Number(row?.total ?? 0);
  }

  /**
   * Not a named prepared statement: every combination of filters and of list lengths is a
   * statement of its own, which a connection would keep for its life.
   */
  private read<T>(sql: string, parameters: unknown[]): Promise<T[]> {
    return this.database.query<T>(sql, parameters);
  }
}

/** The WHERE clause of `filters` on the plan row `p`. */
function conditions(filters: PlanSearchFilters, statement: Statement): string {
  const on: string[] = [];
  const charge: string[] = [];
  const inList = (where: string[], column: string, values: readonly unknown[] | undefined) => {
    if (values) where.push(`${column} IN (${statement.list(values)})`);
  };
  inList(on, 'p.category', filters.categories);
  inList(on, 'p.employees', filters.employees);
  inList(on, 'p.company_slug', filters.companies);
  if (filters.addOn !== undefined) on.push(`p.add_on = ${statement.parameter(filters.addOn)}`);
  if (filters.freeTier !== undefined) {
    on.push(`p.free_tier = ${statement.parameter(filters.freeTier)}`);
  }
  if (filters.minPlans !== undefined) {
    on.push(`p.plan_count >= ${statement.parameter(filters.minPlans)}`);
  }
  if (filters.maxPlans !== undefined) {
    on.push(`p.plan_count <= ${statement.parameter(filters.maxPlans)}`);
  }
  if (filters.discountCategories) {
    on.push(
      `EXISTS (SELECT 1 FROM plan_search_discounts d WHERE d.page_id = p.page_id` +
        ` AND d.plan_index = p.plan_index` +
        ` AND d.discount_category IN (${statement.list(filters.discountCategories)}))`,
    );
  }
  inList(charge, 'c.billing', filters.billing);
  inList(charge, 'c.charge_type', filters.chargeTypes);
  inList(charge, 'c.modality', filters.modalities);
  inList(charge, 'c.usage_type', filters.usageTypes);
  inList(charge, 'c.currency', filters.priceCurrencies);
  if (filters.minMonthly !== undefined || filters.maxMonthly !== undefined) {
    // Null (no monthly equivalent, or no rate) matches neither bound.
    const monthly =
      filters.currency === undefined
        ? 'c.monthly_equivalent'
        : `(c.monthly_equivalent * ${rateOf(statement.parameter(filters.currency))})`;
    if (filters.minMonthly !== undefined) {
      charge.push(`${monthly} >= ${statement.parameter(filters.minMonthly)}`);
    }
    if (filters.maxMonthly !== undefined) {
      charge.push(`${monthly} <= ${statement.parameter(filters.maxMonthly)}`);
    }
  }
  if (charge.length > 0) {
    // The page filters again, on the charge's copy of them: the charges to look through are then
    // those of the companies they select, found by the charges' own index.
    inList(charge, 'c.category', filters.categories);
    inList(charge, 'c.employees', filters.employees);
    inList(charge, 'c.company_slug', filters.companies);
    on.push(
      `EXISTS (SELECT 1 FROM plan_search_charges c WHERE c.page_id = p.page_id` +
        ` AND c.plan_index = p.plan_index AND ${charge.join(' AND ')})`,
    );
  }
  return on.length === 0 ? '' : `WHERE ${on.join(' AND ')}`;
}
