import type { EntityTarget, ObjectLiteral } from 'typeorm';
import type { Transaction } from '../transaction-runner.js';

/** Writes of one read-model table, used by its projector inside the projector's transaction. */
export class ReadModelTable<E extends ObjectLiteral> {
  constructor(private readonly entity: EntityTarget<E>) {}

  async insert(tx: Transaction, rows: E[]): Promise<void> {
    if (rows.length === 0) return;
    await tx.manager.createQueryBuilder().insert().into(this.entity).values(rows).execute();
  }

  async update(tx: Transaction, where: Partial<E>, changes: Partial<E>): Promise<void> {
    await tx.manager.createQueryBuilder().update(this.entity).set(changes).where(where).execute();
  }

  /** Empties the table, for a rebuild from the log. */
  async clear(tx: Transaction): Promise<void> {
    await tx.manager.createQueryBuilder().delete().from(this.entity).execute();
  }
}
