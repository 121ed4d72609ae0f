import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A search within one category: the category and a trigram of the text, in one GIN entry each. */
const INDEXES = [
  ['ix_companies_category_name_trgm', 'lower("name") public.gin_trgm_ops'],
  ['ix_companies_category_slug_trgm', '"slug" public.gin_trgm_ops'],
] as const;

/**
 * Trigram indexes that carry the category too (btree_gin lets a GIN index hold a plain column),
 * for GET /v1/api/companies?search=&category=: the matches of both are found in the index, so
 * counting a category's matches (the exact `total`) visits only those rows, not every company
 * of the category. PostgreSQL only, as the trigram indexes before them; btree_gin is a
 * trusted extension, installed once per database into `public` like pg_trgm.
 */
export class CompanySearchByCategory1764500000000 implements MigrationInterface {
  name = 'CompanySearchByCategory1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'postgres') return;
    await queryRunner.query('CREATE EXTENSION IF NOT EXISTS btree_gin SCHEMA public');
    for (const [name, text] of INDEXES) {
      await queryRunner.query(
        `CREATE INDEX "${name}" ON "companies" USING gin ("category", ${text})`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'postgres') return;
    for (const [name] of INDEXES) await queryRunner.query(`DROP INDEX "${name}"`);
  }
}
