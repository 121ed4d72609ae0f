import type { EntityTarget, ObjectLiteral } from 'typeorm';
import { MAX_PARAMETERS, placeholders } from '../sql.js';
import type { Transaction } from '../transaction-runner.js';

/** Writes of one read-model table, used by its projector inside the projector's transaction. */
export class ReadModelTable<E extends ObjectLiteral> {
  constructor(private readonly entity: EntityTarget<E>) {}

  /**
   * Multi-row INSERTs written out here rather than by the query builder, whose parameter
   * handling grows with the square of a statement's parameters: it was most of a rebuild's CPU.
   */
  async insert(tx: Transaction, rows: E[]): Promise<void> {
    if (rows.length === 0) return;
    const { tableName, columns } = tx.manager.connection.getMetadata(this.entity);
    const names = columns.map((column) => `"${column.databaseName}"`).join(', ');
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

  /** Empties the table, for a rebuild from the log. */
  async clear(tx: Transaction): Promise<void> {
    await tx.manager.createQueryBuilder().delete().from(this.entity).execute();
  }
}
