import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The plan search's read model (GET /v1/api/plans): the plans of each page's latest extraction,
 * one row each with the page and company fields its filters and sorts read, their charges and
 * their discount categories. Each sort has an index that ends in the composite slug, so a page
 * of results is read in order (the internal_name tie is sorted within one slug's few rows), and
 * the category filter one that leads with it. The same statements on both databases.
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
  `CREATE INDEX "ix_plan_search_plans_category_name" ON "plan_search_plans" ("category", "company_name_key", "composite_slug")`,
  `CREATE INDEX "ix_plan_search_plans_monthly" ON "plan_search_plans" ("monthly_missing", "lowest_monthly", "composite_slug")`,
  `CREATE INDEX "ix_plan_search_plans_monthly_desc" ON "plan_search_plans" ("monthly_missing", "lowest_monthly" DESC, "composite_slug")`,
  `CREATE TABLE plan_search_charges (
    page_id varchar(36) NOT NULL,
    plan_index integer NOT NULL,
    charge_index integer NOT NULL,
    billing varchar(100) NOT NULL,
    charge_type varchar(100) NOT NULL,
    modality varchar(100),
    usage_type varchar(100),
    currency varchar(3) NOT NULL,
    monthly_equivalent double precision,
    version varchar(8) NOT NULL,
    PRIMARY KEY (page_id, plan_index, charge_index)
  )`,
  `CREATE TABLE plan_search_discounts (
    page_id varchar(36) NOT NULL,
    plan_index integer NOT NULL,
    discount_index integer NOT NULL,
    discount_category varchar(100) NOT NULL,
    PRIMARY KEY (page_id, plan_index, discount_index)
  )`,
  `CREATE INDEX "ix_plan_search_discounts_category" ON "plan_search_discounts" ("discount_category", "page_id", "plan_index")`,
];
