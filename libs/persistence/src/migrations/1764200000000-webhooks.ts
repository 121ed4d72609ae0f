import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The dispatcher's row; its name is fixed here, where the row is made. */
export const WEBHOOK_DISPATCH = 'pricing-changes';

/**
 * Webhooks, and the dispatcher's place in the change feed: one row, the position (transaction
 * id, seq) of the last extraction whose deliveries are queued, and a generation that every
 * registration moves (see WebhookRepository). The same statements on both databases.
 */
export class Webhooks1764200000000 implements MigrationInterface {
  name = 'Webhooks1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE webhooks (
      id varchar(36) NOT NULL PRIMARY KEY,
      api_key_id varchar(36) NOT NULL,
      url varchar(2048) NOT NULL,
      secret varchar(100) NOT NULL,
      event_types text,
      companies text,
      start_transaction_id bigint NOT NULL,
      start_seq bigint NOT NULL,
      created_at varchar(32) NOT NULL
    )`);
    await queryRunner.query(
      'CREATE INDEX "ix_webhooks_api_key" ON "webhooks" ("api_key_id", "created_at")',
    );
    await queryRunner.query(`CREATE TABLE webhook_dispatch (
      name varchar(64) NOT NULL PRIMARY KEY,
      last_transaction_id bigint NOT NULL,
      last_seq bigint NOT NULL,
      generation bigint NOT NULL,
      updated_at varchar(32) NOT NULL
    )`);
    await queryRunner.query(
      `INSERT INTO webhook_dispatch (name, last_transaction_id, last_seq, generation, updated_at)
       VALUES ('${WEBHOOK_DISPATCH}', 0, 0, 0, '')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE webhook_dispatch');
    await queryRunner.query('DROP TABLE webhooks');
  }
}
