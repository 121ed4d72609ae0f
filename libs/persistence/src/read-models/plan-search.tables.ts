import { In } from 'typeorm';
import { PlanSearchChargeEntity } from '../entities/plan-search-charge.entity.js';
import { PlanSearchCompanyEntity } from '../entities/plan-search-company.entity.js';
import { PlanSearchDiscountEntity } from '../entities/plan-search-discount.entity.js';
import { PlanSearchPageEntity } from '../entities/plan-search-page.entity.js';
import { PlanSearchPlanEntity } from '../entities/plan-search-plan.entity.js';
import { inChunks, MAX_PARAMETERS } from '../sql.js';
import type { Transaction } from '../transaction-runner.js';
import { ReadModelTable } from './read-model-table.js';

/** What the plan search holds of one page: its version and the rows of its plans. */
export interface PlanSearchPageRows {
  page: PlanSearchPageEntity;
  plans: PlanSearchPlanEntity[];
  charges: PlanSearchChargeEntity[];
  discounts: PlanSearchDiscountEntity[];
}

/** The company fields the plan search copies onto each plan row. */
export type PlanSearchCompanyFields = Pick<
  PlanSearchPlanEntity,
  'companyName' | 'companyNameKey' | 'category' | 'employees'
>;

/** Writes (and the reads they depend on) of the plan-search projector, inside its transaction. */
export class PlanSearchTables {
  private readonly companies = new ReadModelTable(PlanSearchCompanyEntity);
  private readonly pages = new ReadModelTable(PlanSearchPageEntity);
  private readonly plans = new ReadModelTable(PlanSearchPlanEntity);
  private readonly charges = new ReadModelTable(PlanSearchChargeEntity);
  private readonly discounts = new ReadModelTable(PlanSearchDiscountEntity);

  insertCompanies(tx: Transaction, rows: PlanSearchCompanyEntity[]): Promise<void> {
    return this.companies.insert(tx, rows);
  }

  /** A company's new profile, on its own row and on the plan and charge rows of its pages. */
  async changeCompany(
    tx: Transaction,
    company: PlanSearchCompanyEntity,
    onPlans: PlanSearchCompanyFields,
  ): Promise<void> {
    const { slug, ...profile } = company;
    await this.companies.update(tx, { slug }, profile);
    await this.plans.update(tx, { companySlug: slug }, onPlans);
    await this.charges.update(
      tx,
      { companySlug: slug },
      { category: onPlans.category, employees: onPlans.employees },
    );
  }

  /** The companies with these slugs, by slug. */
  async companiesBySlug(
    tx: Transaction,
    slugs: string[],
  ): Promise<Map<string, PlanSearchCompanyEntity>> {
    const rows = await inChunks(slugs, (chunk) =>
      tx.manager.getRepository(PlanSearchCompanyEntity).findBy({ slug: In(chunk) }),
    );
    return new Map(rows.map((row) => [row.slug, row]));
  }

  /** The version held for each of these pages that has one. */
  async versionsOf(tx: Transaction, pageIds: string[]): Promise<Map<string, string>> {
    const rows = await inChunks(pageIds, (chunk) =>
      tx.manager.getRepository(PlanSearchPageEntity).find({
        select: { pageId: true, version: true },
        where: { pageId: In(chunk) },
      }),
    );
    return new Map(rows.map((row) => [row.pageId, row.version]));
  }

  /** Removes all the plan search holds of these pages. */
  async removePages(tx: Transaction, pageIds: string[]): Promise<void> {
    for (let start = 0; start < pageIds.length; start += MAX_PARAMETERS) {
      const pageId = In(pageIds.slice(start, start + MAX_PARAMETERS));
      for (const table of [this.pages, this.plans, this.charges, this.discounts]) {
        await table.delete(tx, { pageId });
      }
    }
  }

  /** Adds the rows of these pages, which it holds nothing of. */
  async insertPages(tx: Transaction, pages: PlanSearchPageRows[]): Promise<void> {
    await this.pages.insert(
      tx,
      pages.map(({ page }) => page),
    );
    await this.plans.insert(
      tx,
      pages.flatMap(({ plans }) => plans),
    );
    await this.charges.insert(
      tx,
      pages.flatMap(({ charges }) => charges),
    );
    await this.discounts.insert(
      tx,
      pages.flatMap(({ discounts }) => discounts),
    );
  }

  /** Empties every table, for a rebuild from the log. */
  async clear(tx: Transaction): Promise<void> {
    for (const table of [this.companies, this.pages, this.plans, this.charges, this.discounts]) {
      await table.clear(tx);
    }
  }
}
