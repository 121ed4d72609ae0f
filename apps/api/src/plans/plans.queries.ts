import { Injectable } from '@nestjs/common';
import { pricePlan, type PricingDocument } from '#app/domain';
import {
  PlanSearchReader,
  type PlanSearchFilters,
  type PlanSearchOrder,
  type PlanSearchRow,
} from '#app/persistence';
import { ConversionTargets } from '../currency/conversion-targets.js';

/** The read of the plan search, shaped as the interface returns it. */
@Injectable()
export class PlansQueries {
  constructor(
    private readonly plans: PlanSearchReader,
    private readonly conversions: ConversionTargets,
  ) {}

  /**
   * Page `page` (from 1) of `limit` plans matching `filters` in `order`, and its pagination with
   * the exact total (PlanSearchDto), as JSON text: each plan is sent as the read model stores it.
   */
  async search(
    filters: PlanSearchFilters,
    order: PlanSearchOrder,
    page: number,
    limit: number,
  ): Promise<string> {
    const [rows, total] = await Promise.all([
      this.plans.page(filters, order, { limit, offset: (page - 1) * limit }),
      this.plans.count(filters),
    ]);
    const pagination = { total, page, limit, has_more: page * limit < total };
    const items = await this.items(rows, filters.currency);
    return `{"data":[${items.join(',')}],"pagination":${JSON.stringify(pagination)}}`;
  }

  /** Each row's item; given a currency, its plan's charges carry `converted`. */
  private async items(rows: PlanSearchRow[], currency: string | undefined): Promise<string[]> {
    if (currency === undefined) return rows.map((row) => item(row, row.plan));
    const plans = rows.map((row) => JSON.parse(row.plan) as PricingDocument['plans'][number]);
    const target = await this.conversions.forPlans(currency, plans);
    return rows.map((row, index) =>
      item(row, JSON.stringify(pricePlan(plans[index]!, row.version, target).plan)),
    );
  }
}

/** One PlanSearchItemDto with `plan` (JSON text) last. */
function item(row: PlanSearchRow, plan: string): string {
  const head = JSON.stringify({
    company_slug: row.company_slug,
    company_name: row.company_name,
    category: row.category,
    slug: row.composite_slug,
    version: row.version,
  });
  return `${head.slice(0, -1)},"plan":${plan}}`;
}
