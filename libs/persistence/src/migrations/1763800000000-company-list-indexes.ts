import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes for GET /v1/api/companies: one per sort order (ties broken by id) and per filter,
 * so a page of the list is read from an index instead of sorting the table.
 */
export class CompanyListIndexes1763800000000 implements MigrationInterface {
  name = 'CompanyListIndexes1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [name, columns] of COMPANY_INDEXES) {
      await queryRunner.query(
        `CREATE INDEX "${name}" ON "companies" (${columns.map((c) => `"${c}"`).join(', ')})`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [name] of COMPANY_INDEXES) await queryRunner.query(`DROP INDEX "${name}"`);
  }
}

const COMPANY_INDEXES: [string, string[]][] = [
  ['ix_companies_name', ['name', 'id']],
  ['ix_companies_category_name', ['category', 'name', 'id']],
  ['ix_companies_employees_name', ['employees', 'name', 'id']],
  ['ix_companies_employees_min', ['employees_min', 'id']],
  ['ix_companies_created_at', ['created_at', 'id']],
  ['ix_companies_updated_at', ['updated_at', 'id']],
];
