import { finished } from 'node:stream/promises';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { EntityTarget, FindOptionsWhere, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';
import { MAX_PARAMETERS, placeholders } from '../sql.js';
import type { Transaction } from '../transaction-runner.js';

/** Writes of one read-model table, used by its projector inside the projector's transaction. */
export class ReadModelTable<E extends ObjectLiteral> {
  constructor(private readonly entity: EntityTarget<E>) {}

  /**
   * On PostgreSQL one COPY, which PostgreSQL takes several times faster than INSERTs of the
   * same rows; on SQLite multi-row INSERTs written out here rather than by the query builder,
   * whose parameter handling grows with the square of a statement's parameters.
   */
  async insert(tx: Transaction, rows: E[]): Promise<void> {
    if (rows.length === 0) return;
    const { tableName, columns } = tx.manager.connection.getMetadata(this.entity);
    const names = columns.map((column) => `"${column.databaseName}"`).join(', ');
    if (tx.dialect === 'postgres') {
      await copyRows(tx, `COPY "${tableName}" (${names}) FROM STDIN`, columns, rows);
      return;
    }
    const rowsPerStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
    for (let start = 0; start < rows.length; start += rowsPerStatement) {
      const params: unknown[] = [];
      const tuples = rows.slice(start, start + rowsPerStatement).map((row) => {
        const first = params.length + 1;
        for (const column of columns) params.push(row[column.propertyName] ?? null);
        return `(${placeholders(columns.length, first)})`;
      });
      await tx.query(`INSERT INTO "${tableName}" (${names}) VALUES ${tuples.join(', ')}`, params);
    }
  }

  async update(tx: Transaction, where: Partial<E>, changes: Partial<E>): Promise<void> {
    await tx.manager.createQueryBuilder().update(this.entity).set(changes).where(where).execute();
  }

  async delete(tx: Transaction, where: FindOptionsWhere<E>): Promise<void> {
    await tx.manager.createQueryBuilder().delete().from(this.entity).where(where).execute();
  }

  /** Empties the table, for a rebuild from the log. */
  async clear(tx: Transaction): Promise<void> {
    await tx.manager.createQueryBuilder().delete().from(this.entity).execute();
  }
}

/** Sends `rows` through `copy` (COPY ... FROM STDIN, text format) on the transaction's connection. */
async function copyRows<E extends ObjectLiteral>(
  tx: Transaction,
  copy: string,
  columns: ColumnMetadata[],
  rows: E[],
): Promise<void> {
  const lines = rows.map(
    (row) => `${columns.map((column) => copyField(row[column.propertyName])).join('\t')}\n`,
  );
  // The transaction's own connection: a COPY on another would not be part of it.
  const client = (await tx.manager.queryRunner!.connect()) as PoolClient;
  const stream = client.query(copyFrom(copy));
  stream.end(lines.join(''));
  await finished(stream);
}

/** Characters COPY's text format reads as escapes or separators. */
const COPY_SPECIAL = /[\\\n\r\t]/g;
const COPY_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/** One field in COPY's text format, for the values an INSERT parameter would take. */
function copyField(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return value.toISOString();
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.replace(COPY_SPECIAL, (char) => COPY_ESCAPES[char]!);
}
