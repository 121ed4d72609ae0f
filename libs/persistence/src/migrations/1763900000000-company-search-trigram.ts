import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Trigram indexes for the companies search (`LIKE '%text%'` on the lower-cased name and on the
 * slug), so a search reads an index instead of every row. PostgreSQL only: pg_trgm is a
 * trusted extension there, installed once per database into `public` (a schema dropped with
 * its owner's data must not take it along). SQLite has no such index and scans.
 */
export class CompanySearchTrigram1763900000000 implements MigrationInterface {
  name = 'CompanySearchTrigram1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'postgres') return;
    await queryRunner.query('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
    await queryRunner.query(
      'CREATE INDEX "ix_companies_name_trgm" ON "companies" USING gin (lower("name") public.gin_trgm_ops)',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_companies_slug_trgm" ON "companies" USING gin ("slug" public.gin_trgm_ops)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'postgres') return;
    await queryRunner.query('DROP INDEX "ix_companies_slug_trgm"');
    await queryRunner.query('DROP INDEX "ix_companies_name_trgm"');
  }
}
