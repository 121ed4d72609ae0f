import { Injectable } from '@nestjs/common';
import { DataSource, MigrationExecutor, type QueryRunner } from 'typeorm';

// Any fixed number: every process of this service that migrates takes the same lock.
const MIGRATION_LOCK_ID = 7_305_118_411;

/**
 * Applies pending migrations. On PostgreSQL several processes may start at once; TypeORM takes
 * no lock of its own, so a session advisory lock makes them run one after another, on that
 * session, which the statement timeout of the requests does not bound: an index built over a
 * large table takes what it takes.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  if (dataSource.options.type !== 'postgres') {
    return (await dataSource.runMigrations({ transaction: 'each' })).map((m) => m.name);
  }
  const lockHolder = dataSource.createQueryRunner();
  await lockHolder.connect();
  try {
    await lockHolder.query('SET statement_timeout = 0');
    await lockHolder.query('SET idle_in_transaction_session_timeout = 0');
    await lockHolder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await createSearchPathSchema(lockHolder);
    const migrations = new MigrationExecutor(dataSource, lockHolder);
    migrations.transaction = 'each';
    return (await migrations.executePendingMigrations()).map((m) => m.name);
  } finally {
    await lockHolder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    // Back to the pool with the session's own limits.
    await lockHolder.query('RESET statement_timeout');
    await lockHolder.query('RESET idle_in_transaction_session_timeout');
    await lockHolder.release();
  }
}

/** Creates the schema the connection's search_path names (tests use one per file). */
async function createSearchPathSchema(runner: QueryRunner): Promise<void> {
  const [row] = (await runner.query('SHOW search_path')) as { search_path: string }[];
  const schema = row?.search_path.split(',')[0]?.trim().replace(/"/g, '');
  if (schema && schema !== 'public' && !schema.startsWith('$')) {
    await runner.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  }
}

/**
 * Whether the database lacks migrations this code has: a process applies its own before it
 * listens, so this catches a database restored or rolled back underneath a running process.
 */
@Injectable()
export class MigrationStatus {
  constructor(private readonly dataSource: DataSource) {}

  anyPending(): Promise<boolean> {
    return this.dataSource.showMigrations();
  }
}
