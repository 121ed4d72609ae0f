import { Injectable } from '@nestjs/common';
import type { LogPosition } from '../events/event-store.js';
import { placeholders } from '../sql.js';
import { Transaction, TransactionRunner } from '../transaction-runner.js';

export const START_OF_LOG: LogPosition = { transactionId: '0', seq: 0 };

interface CheckpointRow {
  last_seq: number | string;
  last_transaction_id: string;
}

/**
 * Where each projector stands in the log. A checkpoint is only ever moved inside the transaction
 * that applied the events, so a read model and its checkpoint cannot disagree.
 */
@Injectable()
export class CheckpointStore {
  constructor(private readonly transactions: TransactionRunner) {}

  async ensure(name: string): Promise<void> {
    await this.transactions.query(
      `INSERT INTO projection_checkpoints (name, last_seq, last_transaction_id, updated_at)
       VALUES ($1, 0, '0', $2) ON CONFLICT (name) DO NOTHING`,
      [name, new Date().toISOString()],
    );
  }

  /**
   * Locks the checkpoints of the named projectors for this transaction, in name order (so two
   * claimers waiting for each other cannot deadlock), and returns their positions. Without
   * `wait`, a checkpoint another process holds is left out: that process is applying the same
   * events, and this one must not too.
   */
  async claim(
    tx: Transaction,
    names: string[],
    { wait }: { wait: boolean },
  ): Promise<Map<string, LogPosition>> {
    // SQLite's BEGIN IMMEDIATE already holds the only write lock.
    const lock = tx.dialect !== 'postgres' ? '' : wait ? 'FOR UPDATE' : 'FOR UPDATE SKIP LOCKED';
    const rows = await tx.query<CheckpointRow & { name: string }>(
      `SELECT name, last_seq, last_transaction_id FROM projection_checkpoints
       WHERE name IN (${placeholders(names.length)}) ORDER BY name ${lock}`,
      names,
    );
    return new Map(
      rows.map((row) => [
        row.name,
        { transactionId: row.last_transaction_id, seq: Number(row.last_seq) },
      ]),
    );
  }

  async position(name: string): Promise<LogPosition> {
    const [row] = await this.transactions.query<CheckpointRow>(
      'SELECT last_seq, last_transaction_id FROM projection_checkpoints WHERE name = $1',
      [name],
    );
    return row
      ? { transactionId: row.last_transaction_id, seq: Number(row.last_seq) }
      : START_OF_LOG;
  }

  /** Moves the named projectors' checkpoints to `position`, in one statement. */
  async advance(tx: Transaction, names: string[], position: LogPosition): Promise<void> {
    await tx.query(
      `UPDATE projection_checkpoints SET last_seq = $1, last_transaction_id = $2, updated_at = $3
       WHERE name IN (${placeholders(names.length, 4)})`,
      [position.seq, position.transactionId, new Date().toISOString(), ...names],
    );
  }
}
