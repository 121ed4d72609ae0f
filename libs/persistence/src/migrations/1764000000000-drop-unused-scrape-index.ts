import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Files are read by page id and version; the (company_slug, version) index served no query. */
export class DropUnusedScrapeIndex1764000000000 implements MigrationInterface {
  name = 'DropUnusedScrapeIndex1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "ix_scrape_files_company_version"');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE INDEX "ix_scrape_files_company_version" ON "scrape_files" ("company_slug", "version")',
    );
  }
}
