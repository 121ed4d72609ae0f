import { Injectable } from '@nestjs/common';
import { Mutex } from 'async-mutex';
import type { Pool, QueryResultRow } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import type { BetterSqlite3DataSourceOptions } from 'typeorm/driver/better-sqlite3/BetterSqlite3DataSourceOptions.js';
import type { BetterSqlite3Driver } from 'typeorm/driver/better-sqlite3/BetterSqlite3Driver.js';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import { dialectOf, runSql, type Dialect } from './sql.js';

/** The part of better-sqlite3's connection that takes the write lock. */
interface SqliteConnection {
  pragma(source: string): unknown;
  exec(sql: string): unknown;
}

/** How often a transaction tries again for SQLite's write lock while another process holds it. */
const WRITE_LOCK_RETRY_MS = 20;

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
    this.dialect = dialectOf(dataSource.options);
  }

  /** Runs `work` in one transaction: committed if it resolves, rolled back if it throws. */
  run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    if (this.dialect === 'postgres') {
      return this.dataSource.transaction((manager) => work(new Transaction(manager, 'postgres')));
    }
    return this.sqliteWriter.runExclusive(() => this.runOnSqlite(work));
  }

  /** Statements outside a transaction: reads only (on SQLite every write goes through run()). */
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
    await this.beginImmediate();
    const runner = this.dataSource.createQueryRunner();
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

  /**
   * BEGIN IMMEDIATE: the write lock up front (a deferred transaction that reads and then writes
   * fails at once with SQLITE_BUSY when another process wrote in between). better-sqlite3 waits
   * for another process's lock synchronously, the whole process with it (every request of an
   * API beside its worker), so the lock is asked for without waiting and asked again after a
   * moment, until the connection's busy timeout (DATABASE_STATEMENT_TIMEOUT_MS) has passed.
   */
  private async beginImmediate(): Promise<void> {
    const connection = (this.dataSource.driver as BetterSqlite3Driver)
      .databaseConnection as SqliteConnection;
    const waitMs = (this.dataSource.options as BetterSqlite3DataSourceOptions).timeout ?? 0;
    const deadline = Date.now() + waitMs;
    for (;;) {
      // Synchronous from here to the restore: no other statement runs with it meanwhile.
      connection.pragma('busy_timeout = 0');
      try {
        connection.exec('BEGIN IMMEDIATE');
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) {
          throw error;
        }
      } finally {
        connection.pragma(`busy_timeout = ${waitMs}`);
      }
      await new Promise((next) => setTimeout(next, WRITE_LOCK_RETRY_MS));
    }
  }
}
