import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The price index's read model (GET /v1/api/benchmarks and /benchmarks/series): every
 * extraction of every page with the version of the page's next one (`until`: it is in force
 * from its version until then), and its entry-price candidates, one row per billing, modality
 * and currency with the lowest monthly equivalent above 0, each carrying its company's category
 * and band and its extraction's `until`. A sample within categories and bands over a range of
 * dates is then read from the filter index alone (index-only on PostgreSQL once vacuumed); a
 * sample of every page on one date from the extractions whose `until` is after it. The
 * projector keeps its own copy of each company's category and band. The same statements on
 * both databases. Nothing is copied here: the projector's checkpoint starts at the beginning of
 * the log, so a worker fills the tables on its first run (docs/operators.md, Upgrades).
 */
export class PriceIndex1765000000000 implements MigrationInterface {
  name = 'PriceIndex1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const statement of STATEMENTS) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['price_index_entries', 'price_index_versions', 'price_index_companies']) {
      await queryRunner.query(`DROP TABLE ${table}`);
    }
  }
}

const STATEMENTS = [
  `CREATE TABLE price_index_companies (
    slug varchar(255) NOT NULL PRIMARY KEY,
    category varchar(64) NOT NULL,
    employees varchar(32) NOT NULL
  )`,
  `CREATE TABLE price_index_versions (
    page_id varchar(36) NOT NULL,
    version varchar(8) NOT NULL,
    until varchar(8),
    PRIMARY KEY (page_id, version)
  )`,
  `CREATE TABLE price_index_entries (
    page_id varchar(36) NOT NULL,
    version varchar(8) NOT NULL,
    entry_index integer NOT NULL,
    until varchar(8),
    company_slug varchar(255) NOT NULL,
    category varchar(64) NOT NULL,
    employees varchar(32) NOT NULL,
    billing varchar(100) NOT NULL,
    modality varchar(100),
    currency varchar(3) NOT NULL,
    monthly double precision NOT NULL,
    PRIMARY KEY (page_id, version, entry_index)
  )`,
  `CREATE INDEX "ix_price_index_entries_company" ON "price_index_entries" ("company_slug")`,
  `CREATE INDEX "ix_price_index_entries_filter" ON "price_index_entries" ("category", "employees", "version", "until", "page_id", "billing", "modality", "currency", "monthly")`,
  `CREATE INDEX "ix_price_index_entries_in_force" ON "price_index_entries" ("until", "version")`,
];
