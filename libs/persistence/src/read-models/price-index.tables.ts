import { In } from 'typeorm';
import { PriceIndexCompanyEntity } from '../entities/price-index-company.entity.js';
import { PriceIndexEntryEntity } from '../entities/price-index-entry.entity.js';
import { PriceIndexVersionEntity } from '../entities/price-index-version.entity.js';
import { inChunks, MAX_PARAMETERS, placeholders } from '../sql.js';
import type { Transaction } from '../transaction-runner.js';
import { ReadModelTable } from './read-model-table.js';

/** A held extraction whose successor has changed: it is in force until `until` now. */
export interface PriceIndexEnd {
  pageId: string;
  version: string;
  until: string;
}

/** The tables holding an extraction's end: its own row and its entries. */
const ENDED_TABLES = ['price_index_versions', 'price_index_entries'];

/** Writes (and the reads they depend on) of the price-index projector, inside its transaction. */
export class PriceIndexTables {
  private readonly companies = new ReadModelTable(PriceIndexCompanyEntity);
  private readonly versions = new ReadModelTable(PriceIndexVersionEntity);
  private readonly entries = new ReadModelTable(PriceIndexEntryEntity);

  insertCompanies(tx: Transaction, rows: PriceIndexCompanyEntity[]): Promise<void> {
    return this.companies.insert(tx, rows);
  }

  /** A company's new category and band, on its own row and on the entries of its pages. */
  async changeCompany(tx: Transaction, company: PriceIndexCompanyEntity): Promise<void> {
    const { slug, category, employees } = company;
    await this.companies.update(tx, { slug }, { category, employees });
    await this.entries.update(tx, { companySlug: slug }, { category, employees });
  }

  /** The companies with these slugs, by slug. */
  async companiesBySlug(
    tx: Transaction,
    slugs: string[],
  ): Promise<Map<string, PriceIndexCompanyEntity>> {
    const rows = await inChunks(slugs, (chunk) =>
      tx.manager.getRepository(PriceIndexCompanyEntity).findBy({ slug: In(chunk) }),
    );
    return new Map(rows.map((row) => [row.slug, row]));
  }

  /** The latest version held of each of these pages that has one. */
  async latestVersions(tx: Transaction, pageIds: string[]): Promise<Map<string, string>> {
    const rows = await inChunks(pageIds, (chunk) =>
      tx.manager
        .getRepository(PriceIndexVersionEntity)
        .createQueryBuilder('held')
        .select('held.pageId', 'page_id')
        .addSelect('MAX(held.version)', 'latest')
        .where({ pageId: In(chunk) })
        .groupBy('held.pageId')
        .getRawMany<{ page_id: string; latest: string }>(),
    );
    return new Map(rows.map((row) => [row.page_id, row.latest]));
  }

  /** Every version held of each of these pages, oldest first. */
  async versionsOf(tx: Transaction, pageIds: string[]): Promise<Map<string, string[]>> {
    const rows = await inChunks(pageIds, (chunk) =>
      tx.manager.getRepository(PriceIndexVersionEntity).find({
        select: { pageId: true, version: true },
        where: { pageId: In(chunk) },
        order: { version: 'ASC' },
      }),
    );
    const held = new Map<string, string[]>();
    for (const { pageId, version } of rows) {
      const versions = held.get(pageId);
      if (versions) versions.push(version);
      else held.set(pageId, [version]);
    }
    return held;
  }

  /** Adds extractions the read model does not hold, with their entries. */
  async insertExtractions(
    tx: Transaction,
    versions: PriceIndexVersionEntity[],
    entries: PriceIndexEntryEntity[],
  ): Promise<void> {
    await this.versions.insert(tx, versions);
    await this.entries.insert(tx, entries);
  }

  /** Moves the end of held extractions (a later or an earlier one arrived): one statement a table. */
  async setEnds(tx: Transaction, ends: PriceIndexEnd[]): Promise<void> {
    const perStatement = Math.floor(MAX_PARAMETERS / 3);
    for (let start = 0; start < ends.length; start += perStatement) {
      const chunk = ends.slice(start, start + perStatement);
      const values = chunk.map((_, i) => `(${placeholders(3, 3 * i + 1)})`);
      const parameters = chunk.flatMap((end) => [end.pageId, end.version, end.until]);
      for (const table of ENDED_TABLES) {
        await tx.query(
          `WITH ended (page_id, version, until) AS (VALUES ${values.join(', ')})
           UPDATE ${table} SET until = ended.until FROM ended
           WHERE ${table}.page_id = ended.page_id AND ${table}.version = ended.version`,
          parameters,
        );
      }
    }
  }

  /** Empties every table, for a rebuild from the log. */
  async clear(tx: Transaction): Promise<void> {
    for (const table of [this.companies, this.versions, this.entries]) await table.clear(tx);
  }
}
