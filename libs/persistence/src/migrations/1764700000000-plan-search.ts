import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The plan search's read model (GET /v1/api/plans): the plans of each page's latest extraction,
 * one row each with the page and company fields its filters and sorts read, their charges and
 * their discount categories. Each sort has an index that ends in the composite slug, so a page
 * of results is read in order (the internal_name tie is sorted within one slug's few rows).
 * The category and size band lead a "filter" index of each table that holds every column a
 * search filters, sorts or joins on: a search within categories and bands then reads and counts
 * its matches from the two indexes alone (index-only on PostgreSQL once vacuumed), and only the
 * page it answers from the table. Charges carry their company's slug, category and band for
 * that. The same statements on both databases.
 */
export class PlanSearch1764700000000 implements MigrationInterface {
  name = 'PlanSearch1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const statement of STATEMENTS) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'plan_search_discounts',
      'plan_search_charges',
      'plan_search_plans',
      'plan_search_pages',
      'plan_search_companies',
    ]) {
      await queryRunner.query(`DROP TABLE ${table}`);
    }
  }
}

const STATEMENTS = [
  `CREATE TABLE plan_search_companies (
    slug varchar(255) NOT NULL PRIMARY KEY,
    name varchar(255) NOT NULL,
    category varchar(64) NOT NULL,
    employees varchar(32) NOT NULL
  )`,
  `CREATE TABLE plan_search_pages (
    page_id varchar(36) NOT NULL PRIMARY KEY,
    company_slug varchar(255) NOT NULL,
    version varchar(8) NOT NULL
  )`,
  `CREATE TABLE plan_search_plans (
    page_id varchar(36) NOT NULL,
    plan_index integer NOT NULL,
    composite_slug varchar(400) NOT NULL,
    company_slug varchar(255) NOT NULL,
    company_name varchar(255) NOT NULL,
    company_name_key varchar(510) NOT NULL,
    category varchar(64) NOT NULL,
    employees varchar(32) NOT NULL,
    version varchar(8) NOT NULL,
    internal_name varchar(200) NOT NULL,
    add_on boolean NOT NULL,
    free_tier boolean NOT NULL,
    plan_count integer NOT NULL,
    lowest_monthly double precision,
    monthly_missing boolean NOT NULL,
    plan text NOT NULL,
    PRIMARY KEY (page_id, plan_index)
  )`,
  `CREATE INDEX "ix_plan_search_plans_company" ON "plan_search_plans" ("company_slug")`,
  `CREATE INDEX "ix_plan_search_plans_name" ON "plan_search_plans" ("company_name_key", "composite_slug")`,
  `CREATE INDEX "ix_plan_search_plans_filter" ON "plan_search_plans" ("category", "employees", "company_name_key", "composite_slug", "internal_name", "plan_index", "page_id", "monthly_missing", "lowest_monthly", "add_on", "free_tier", "plan_count")`,
  `CREATE INDEX "ix_plan_search_plans_monthly" ON "plan_search_plans" ("monthly_missing", "lowest_monthly", "composite_slug")`,
  `CREATE INDEX "ix_plan_search_plans_monthly_desc" ON "plan_search_plans" ("monthly_missing", "lowest_monthly" DESC, "composite_slug")`,
  `CREATE TABLE plan_search_charges (
    page_id varchar(36) NOT NULL,
    plan_index integer NOT NULL,
    charge_index integer NOT NULL,
    company_slug varchar(255) NOT NULL,
    category varchar(64) NOT NULL,
    employees varchar(32) NOT NULL,
    billing varchar(100) NOT NULL,
    charge_type varchar(100) NOT NULL,
    modality varchar(100),
    usage_type varchar(100),
    currency varchar(3) NOT NULL,
    monthly_equivalent double precision,
    version varchar(8) NOT NULL,
    PRIMARY KEY (page_id, plan_index, charge_index)
  )`,
  `CREATE INDEX "ix_plan_search_charges_company" ON "plan_search_charges" ("company_slug")`,
  `CREATE INDEX "ix_plan_search_charges_filter" ON "plan_search_charges" ("category", "employees", "page_id", "plan_index", "billing", "charge_type", "modality", "usage_type", "currency", "monthly_equivalent", "version")`,
  `CREATE TABLE plan_search_discounts (
    page_id varchar(36) NOT NULL,
    plan_index integer NOT NULL,
    discount_index integer NOT NULL,
    discount_category varchar(100) NOT NULL,
    PRIMARY KEY (page_id, plan_index, discount_index)
  )`,
  `CREATE INDEX "ix_plan_search_discounts_category" ON "plan_search_discounts" ("discount_category", "page_id", "plan_index")`,
];
