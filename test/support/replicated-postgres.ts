import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { OwnPostgres, postgresBinDir } from './own-postgres.js';

/**
 * A PostgreSQL primary and one streaming replica of its own (initdb, then `pg_basebackup -R`),
 * on free ports, for tests and soak scripts of read replicas. PostgreSQL's defaults already
 * stream (wal_level replica, max_wal_senders 10, hot_standby on) and initdb's trust lines admit
 * replication connections from 127.0.0.1.
 */
export class ReplicatedPostgres {
  private constructor(
    private readonly primary: OwnPostgres,
    private readonly replica: OwnPostgres,
  ) {}

  /** Initialises and starts both; the replica streams from the primary once this returns. */
  static async start(): Promise<ReplicatedPostgres> {
    const primary = await OwnPostgres.create();
    await primary.start();
    try {
      const replica = await OwnPostgres.replicaOf(primary);
      await replica.start();
      return new ReplicatedPostgres(primary, replica);
    } catch (error) {
      await primary.remove();
      throw error;
    }
  }

  get primaryUrl(): string {
    return this.primary.url;
  }

  get replicaUrl(): string {
    return this.replica.url;
  }

  /** Cuts the replica off at once (its sessions are dropped, as when its host goes away). */
  stopReplica(): Promise<void> {
    return this.replica.stop('immediate');
  }

  /** Starts it again on the same port; it catches up with the primary by itself. */
  startReplica(): Promise<void> {
    return this.replica.start();
  }

  /** Stops the replica replaying WAL: it keeps receiving it, and lags from then on. */
  pauseReplay(): Promise<void> {
    return this.onReplica('SELECT pg_wal_replay_pause()');
  }

  resumeReplay(): Promise<void> {
    return this.onReplica('SELECT pg_wal_replay_resume()');
  }

  /** Stops both servers and deletes their files. */
  async stop(): Promise<void> {
    await Promise.allSettled([this.replica.remove(), this.primary.remove()]);
  }

  private async onReplica(sql: string): Promise<void> {
    const client = new pg.Client({ connectionString: this.replicaUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }
}

/** Why a replicated pair cannot run here, or null: the PostgreSQL run with server binaries. */
export function replicaUnavailableReason(): string | null {
  if (!process.env.TEST_DATABASE_URL?.startsWith('postgres')) {
    return 'read replicas are PostgreSQL only (TEST_DATABASE_URL is not postgres://)';
  }
  try {
    const binDir = postgresBinDir();
    if (!existsSync(join(binDir, 'pg_basebackup'))) return `no pg_basebackup in ${binDir}`;
  } catch (error) {
    return (error as Error).message;
  }
  return null;
}
