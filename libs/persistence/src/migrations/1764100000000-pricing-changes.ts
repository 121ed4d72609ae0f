import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The change feed's read model: one row per pricing change, keyed by its feed position, the
 * extraction event's place in projection order (transaction id, seq) and the change's index
 * within it. A filter has its own index ending in the position, so each page of the feed is a
 * range read. Names from the pipeline (plan, charge, discount) are text: billing and discount
 * categories have no length limit. The same statements on both databases (SQLite has no transaction id: 0).
 */
export class PricingChanges1764100000000 implements MigrationInterface {
  name = 'PricingChanges1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE pricing_changes (
      event_transaction_id bigint NOT NULL,
      event_seq bigint NOT NULL,
      change_index integer NOT NULL,
      company_slug varchar(255) NOT NULL,
      page_slug varchar(100) NOT NULL,
      composite_slug varchar(400) NOT NULL,
      from_version varchar(8),
      to_version varchar(8) NOT NULL,
      event_type varchar(32) NOT NULL,
      plan text NOT NULL,
      charge_billing text,
      charge_display_name text,
      discount text,
      field varchar(64),
      old_value text NOT NULL,
      new_value text NOT NULL,
      recorded_at varchar(32) NOT NULL,
      PRIMARY KEY (event_transaction_id, event_seq, change_index)
    )`);
    for (const [name, column] of FILTER_INDEXES) {
      await queryRunner.query(
        `CREATE INDEX "${name}" ON "pricing_changes" ("${column}", "event_transaction_id", "event_seq", "change_index")`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE pricing_changes');
  }
}

const FILTER_INDEXES: [string, string][] = [
  ['ix_pricing_changes_company', 'company_slug'],
  ['ix_pricing_changes_event_type', 'event_type'],
];
