import { Injectable } from '@nestjs/common';
import { DataSource, type QueryRunner } from 'typeorm';

// Any fixed number: every process of this service that migrates takes the same lock.
const MIGRATION_LOCK_ID = 7_305_118_411;

/**
 * Applies pending migrations. On PostgreSQL several processes may start at once; TypeORM takes
 * no lock of its own, so a session advisory lock makes them run one after another.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  if (dataSource.options.type !== 'postgres') {
    return (await dataSource.runMigrations({ transaction: 'each' })).map((m) => m.name);
  }
  const lockHolder = dataSource.createQueryRunner();
  await lockHolder.connect();
  try {
    await lockHolder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await createSearchPathSchema(lockHolder);
    return (await dataSource.runMigrations({ transaction: 'each' })).map((m) => m.name);
  } finally {
    await lockHolder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
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
