import type { DataSourceOptions, EntityManager } from 'typeorm';

export type Dialect = 'sqlite' | 'postgres';

/** The dialect of a data source: PostgreSQL, or SQLite (better-sqlite3). */
export const dialectOf = (options: DataSourceOptions): Dialect =>
  options.type === 'postgres' ? 'postgres' : 'sqlite';

/** Bound parameters per statement, well under SQLite's limit (32766) and PostgreSQL's (65535). */
export const MAX_PARAMETERS = 10_000;

/** `$from, $from+1, ...`: `count` placeholders. */
export const placeholders = (count: number, from = 1) =>
  Array.from({ length: count }, (_, i) => `$${from + i}`).join(', ');

/** `read` over `keys` a statement's worth of parameters at a time, the rows joined. */
export async function inChunks<K, R>(
  keys: readonly K[],
  read: (chunk: K[]) => Promise<R[]>,
): Promise<R[]> {
  const rows: R[] = [];
  for (let start = 0; start < keys.length; start += MAX_PARAMETERS) {
    rows.push(...(await read(keys.slice(start, start + MAX_PARAMETERS))));
  }
  return rows;
}

/** A statement being written and its parameters, numbered as they are added. */
export class Statement {
  readonly parameters: unknown[] = [];

  parameter(value: unknown): string {
    this.parameters.push(value);
    return `$${this.parameters.length}`;
  }

  list(values: readonly unknown[]): string {
    return values.map((value) => this.parameter(value)).join(', ');
  }
}

/**
 * Runs SQL written with PostgreSQL's `$1` placeholders on either database (SQLite reads `?`).
 * Raw SQL is kept to what the query builder cannot say: the event log and its checkpoints.
 */
export function runSql<T = Record<string, unknown>>(
  manager: EntityManager,
  dialect: Dialect,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  if (dialect === 'postgres') return manager.query(sql, params) as Promise<T[]>;
  // better-sqlite3 binds anonymous `?` in order, so each `$n` becomes `?` with its value in place.
  const values: unknown[] = [];
  const text = sql.replace(/\$(\d+)/g, (_match, index: string) => {
    values.push(toSqliteValue(params[Number(index) - 1]));
    return '?';
  });
  return manager.query(text, values) as Promise<T[]>;
}

function toSqliteValue(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}

/** True when the error is a unique-constraint violation of the named constraint's columns. */
export function isUniqueViolation(
  error: unknown,
  constraint: string,
  sqliteColumns: string,
): boolean {
  const driverError = (
    error as { driverError?: { code?: string; constraint?: string; message?: string } }
  )?.driverError;
  if (!driverError) return false;
  if (driverError.code === '23505') return driverError.constraint === constraint;
  return (
    driverError.code === 'SQLITE_CONSTRAINT_UNIQUE' &&
    (driverError.message ?? '').includes(sqliteColumns)
  );
}
