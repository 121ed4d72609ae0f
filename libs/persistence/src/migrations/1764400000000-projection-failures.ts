import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The failure columns of a checkpoint, each with its type. */
const FAILURE_COLUMNS = [
  ['failed_at', 'varchar(32)'],
  ['failed_event_seq', 'bigint'],
  ['failed_event_type', 'varchar(100)'],
  ['failed_stream_id', 'varchar(400)'],
  ['failure', 'text'],
] as const;

/**
 * Where a projector stopped: the event it could not apply (the first after its checkpoint) and
 * the error, kept on its checkpoint until an operator retries it (`cli projections:retry`) or a
 * rebuild succeeds. The same statements on both databases.
 */
export class ProjectionFailures1764400000000 implements MigrationInterface {
  name = 'ProjectionFailures1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [column, type] of FAILURE_COLUMNS) {
      await queryRunner.query(`ALTER TABLE projection_checkpoints ADD COLUMN ${column} ${type}`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [column] of FAILURE_COLUMNS) {
      await queryRunner.query(`ALTER TABLE projection_checkpoints DROP COLUMN ${column}`);
    }
  }
}
