import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each pricing snapshot gets its extraction event's position in projection order (transaction
 * id, seq), the change feed's position, so the export reads snapshots in feed order by a range
 * of a unique index. The projector writes it from now on; the rows already there get it here,
 * from the log: a snapshot's event is the only one of the stream
 * `pricing-<company>/<page>/<version>` (streamIds.pricing), found by the (stream_id,
 * stream_version) index, so a deployed database needs no rebuild. The columns stay nullable
 * because SQLite adds a NOT NULL column only with a default, which would be a false position;
 * every row has one once this has run. The same statements on both databases (SQLite has no
 * transaction id: 0; PostgreSQL's xid8 goes to bigint through text, as the feed stores it).
 */
export class PricingSnapshotPositions1764800000000 implements MigrationInterface {
  name = 'PricingSnapshotPositions1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE pricing_snapshots ADD COLUMN event_transaction_id bigint');
    await queryRunner.query('ALTER TABLE pricing_snapshots ADD COLUMN event_seq bigint');
    await queryRunner.query(`UPDATE pricing_snapshots
      SET event_transaction_id = CAST(CAST(events.transaction_id AS text) AS bigint),
          event_seq = events.seq
      FROM events
      WHERE events.stream_id = 'pricing-' || pricing_snapshots.company_slug || '/'
          || pricing_snapshots.page_slug || '/' || pricing_snapshots.version
        AND events.stream_version = 1`);
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_pricing_snapshots_position" ON "pricing_snapshots" ("event_transaction_id", "event_seq")',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "uq_pricing_snapshots_position"');
    await queryRunner.query('ALTER TABLE pricing_snapshots DROP COLUMN event_seq');
    await queryRunner.query('ALTER TABLE pricing_snapshots DROP COLUMN event_transaction_id');
  }
}
