import { Injectable } from '@nestjs/common';
import { Mutex } from 'async-mutex';
import type { Pool, QueryResultRow } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import { runSql, type Dialect } from './sql.js';

/** A unit of work handed to repositories; only persistence looks inside. */
export class Transaction {
  constructor(
    readonly manager: EntityManager,
    readonly dialect: Dialect,
  ) {}

  query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return runSql<T>(this.manager, this.dialect, sql, params);
  }
}

@Injectable()
export class TransactionRunner {
  readonly dialect: Dialect;
  // better-sqlite3 is one connection per process: two open transactions on it would interleave.
  private readonly sqliteWriter = new Mutex();

  constructor(private readonly dataSource: DataSource) {
    this.dialect = dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
  }

  /** Runs `work` in one transaction: committed if it resolves, rolled back if it throws. */
  run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    if (this.dialect === 'postgres') {
      return this.dataSource.transaction((manager) => work(new Transaction(manager, 'postgres')));
    }
    return this.sqliteWriter.runExclusive(() => this.runOnSqlite(work));
  }

  /** Statements outside a transaction (reads, and single writes that need no other). */
  query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return runSql<T>(this.dataSource.manager, this.dialect, sql, params);
  }

  /**
   * A short read on its own, for one a request makes every time: on PostgreSQL straight on
   * the driver's pool as the named prepared statement `name` (parsed and planned once per
   * connection, and without TypeORM's query runner, which costs more than such a read).
   */
  async readPrepared<T>(name: string, sql: string, params: unknown[]): Promise<T[]> {
    if (this.dialect !== 'postgres') return this.query<T>(sql, params);
    const pool = (this.dataSource.driver as PostgresDriver).master as Pool;
    const { rows } = await pool.query<T & QueryResultRow>({ name, text: sql, values: params });
    return rows;
  }

  private async runOnSqlite<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    // IMMEDIATE takes the write lock up front: a deferred transaction that reads and then
    // writes fails at once (SQLITE_BUSY) when another process wrote in between.
    await runner.query('BEGIN IMMEDIATE');
    try {
      const result = await work(new Transaction(runner.manager, 'sqlite'));
      await runner.query('COMMIT');
      return result;
    } catch (error) {
      await runner.query('ROLLBACK');
      throw error;
    } finally {
      await runner.release();
    }
  }
}
