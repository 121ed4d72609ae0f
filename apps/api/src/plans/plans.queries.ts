import { Injectable } from '@nestjs/common';
import {
  PlanSearchReader,
  type PlanSearchFilters,
  type PlanSearchOrder,
  type PlanSearchRow,
} from '#app/persistence';

/** The read of the plan search, shaped as the interface returns it. */
@Injectable()
export class PlansQueries {
  constructor(private readonly plans: PlanSearchReader) {}

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
    return `{"data":[${rows.map((row) => item(row, row.plan)).join(',')}],"pagination":${JSON.stringify(pagination)}}`;
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
