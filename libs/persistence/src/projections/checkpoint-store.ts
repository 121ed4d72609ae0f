import { Injectable } from '@nestjs/common';
import type { LogPosition } from '../events/event-store.js';
import { placeholders } from '../sql.js';
import { Transaction, TransactionRunner } from '../transaction-runner.js';
import { CheckpointStampBoard, type PublishedStamps } from './checkpoint-stamp-board.js';

export const START_OF_LOG: LogPosition = { transactionId: '0', seq: 0 };

export interface CheckpointRow {
  last_seq: number | string;
  last_transaction_id: string;
}

interface FailureColumns {
  failed_at: string | null;
  failed_event_seq: number | string | null;
  failed_event_type: string | null;
  failed_stream_id: string | null;
  failure: string | null;
}

/** Why a projector stopped: the first event after its checkpoint, which it could not apply. */
export interface ProjectorFailure {
  eventSeq: number;
  eventType: string;
  streamId: string;
  error: string;
  failedAt: string;
}

export interface CheckpointState {
  name: string;
  position: LogPosition;
  /** Null while the projector moves; set, it stays where it is until retried or rebuilt. */
  failure: ProjectorFailure | null;
}

/** PostgreSQL's SQLSTATE for a row lock that NOWAIT would have had to wait for. */
const LOCK_NOT_AVAILABLE = '55P03';

/** How long a database read of stamps is joined by the requests that need the same ones. */
const SHARED_STAMP_READ_MS = 1_000;

/**
 * How long a request whose stamps have lapsed waits for the database's, before it goes on with
 * the lapsed ones: a healthy database answers in a millisecond or two.
 */
const LAPSED_STAMP_PATIENCE_MS = 100;

/** An error message is kept whole enough to act on, never so long it floods a table or a log. */
const MAX_FAILURE_LENGTH = 2_000;

/** A checkpoint's stamp: its position and the time it last moved (see CheckpointStore.stamp). */
export const checkpointStampOf = (row: CheckpointRow & { updated_at: string }): string =>
  `${row.last_transaction_id}.${row.last_seq}.${row.updated_at}`;

const positionOf = (row: CheckpointRow): LogPosition => ({
  transactionId: row.last_transaction_id,
  seq: Number(row.last_seq),
});

/**
 * Where each projector stands in the log. A checkpoint is only ever moved inside the transaction
 * that applied the events, so a read model and its checkpoint cannot disagree.
 */
@Injectable()
export class CheckpointStore {
  /**
   * The database reads of stamps under way, by the names read: the requests that find no
   * current stamp on Redis together (every one, when the stamps lapse) share one read, joined
   * for SHARED_STAMP_READ_MS at most.
   */
  private readonly stampReads = new Map<string, Promise<string>>();

  constructor(
    private readonly transactions: TransactionRunner,
    private readonly board: CheckpointStampBoard,
  ) {}

  async ensure(name: string): Promise<void> {
    await this.transactions.run((tx) =>
      tx.query(
        `INSERT INTO projection_checkpoints (name, last_seq, last_transaction_id, updated_at)
         VALUES ($1, 0, '0', $2) ON CONFLICT (name) DO NOTHING`,
        [name, new Date().toISOString()],
      ),
    );
  }

  /**
   * Locks the checkpoints of the named projectors for this transaction, in name order (so two
   * claimers waiting for each other cannot deadlock), and returns their positions. Without
   * `wait`, a checkpoint another process holds is left out: that process is applying the same
   * events, and this one must not too. A failed projector is left out too, unless
   * `includeFailed` (a rebuild starts it afresh).
   */
  async claim(
    tx: Transaction,
    names: string[],
    { wait, includeFailed = false }: { wait: boolean; includeFailed?: boolean },
  ): Promise<Map<string, LogPosition>> {
    // SQLite's BEGIN IMMEDIATE already holds the only write lock.
    const lock = tx.dialect !== 'postgres' ? '' : wait ? 'FOR UPDATE' : 'FOR UPDATE SKIP LOCKED';
    const rows = await tx.query<CheckpointRow & { name: string }>(
      `SELECT name, last_seq, last_transaction_id FROM projection_checkpoints
       WHERE name IN (${placeholders(names.length)}) ${includeFailed ? '' : 'AND failed_at IS NULL'}
       ORDER BY name ${lock}`,
      names,
    );
    return new Map(rows.map((row) => [row.name, positionOf(row)]));
  }

  async position(name: string): Promise<LogPosition> {
    const [row] = await this.transactions.query<CheckpointRow>(
      'SELECT last_seq, last_transaction_id FROM projection_checkpoints WHERE name = $1',
      [name],
    );
    return row ? positionOf(row) : START_OF_LOG;
  }

  /**
   * The stamps published for the named read models (CheckpointStampBoard), read from Redis
   * alone: a request starts it beside its metering, and completes it with stamp() once
   * admitted. Null on SQLite, whose stamp is a read of this process's own file, and when Redis
   * does not answer: the database's stamp is as good, only slower.
   */
  async publishedStamps(names: readonly string[]): Promise<PublishedStamps | null> {
    if (this.transactions.dialect !== 'postgres') return null;
    return this.board.read(names).catch(() => null);
  }

  /**
   * A text that changes whenever one of the named read models changes: their checkpoints'
   * positions and times (a rebuild to the same position still moves the time). An answer made
   * from those read models can be kept under it for as long as it is current. Taken from
   * `published` (publishedStamps()) when every one is there; otherwise read from the database
   * and published for the next request, unless a projector is moving one of them right now
   * (when the published ones have only lapsed, for LAPSED_STAMP_PATIENCE_MS at most). Requests
   * that need the database's stamp together share one read of it (sharedStampRead).
   */
  async stamp(names: readonly string[], published: PublishedStamps | null): Promise<string> {
    if (published?.stamps.every((stamp) => stamp !== null)) return published.stamps.join(' ');
    const current = this.sharedStampRead(names, async () =>
      published
        ? this.readAndPublish(names, published)
        : (await this.storedStamps(names, 'read')).join(' '),
    );
    if (!published || !published.lapsed.every((stamp) => stamp !== null)) return current;
    // Stamps only lapsed, not taken down: they are the current ones unless a projector moved
    // while Redis was away. A database that cannot say in time (busy, stalled) is not waited for.
    current.catch(() => undefined);
    const lapsed = published.lapsed.join(' ');
    return Promise.race([
      current,
      new Promise<string>((use) => setTimeout(() => use(lapsed), LAPSED_STAMP_PATIENCE_MS).unref()),
    ]);
  }

  /**
   * `read`, unless a read of the same stamps is under way: that one's stamp is as current as a
   * read begun now, give or take the time one read takes (as a stamp just read on Redis is).
   */
  private sharedStampRead(names: readonly string[], read: () => Promise<string>): Promise<string> {
    const key = names.join(' ');
    const under = this.stampReads.get(key);
    if (under) return under;
    const reading = read();
    this.stampReads.set(key, reading);
    const leave = () => {
      if (this.stampReads.get(key) === reading) this.stampReads.delete(key);
    };
    reading.then(leave, leave);
    // A read that does not end (a connection dead under it) holds only those that joined it.
    setTimeout(leave, SHARED_STAMP_READ_MS).unref();
    return reading;
  }

  /** The stamps read from the database, published for the next request when none is moving. */
  private async readAndPublish(
    names: readonly string[],
    published: PublishedStamps,
  ): Promise<string> {
    const settled = await this.storedStamps(names, 'settled');
    if (settled) {
      // The stamp is this request's either way; a lost publication is made again next time.
      this.board.publish(names, published.fences, settled).catch(() => undefined);
      return settled.join(' ');
    }
    return (await this.storedStamps(names, 'read')).join(' ');
  }

  /** The named read models' stamp now, for a caller that reads nothing beside it. */
  async currentStamp(names: readonly string[]): Promise<string> {
    return this.stamp(names, await this.publishedStamps(names));
  }

  /**
   * Each named checkpoint's stamp, in the order of `names`. `settled` reads them under a share
   * lock that refuses to wait, and answers null while a projector holds one: the only stamps
   * that may be published (CheckpointStampBoard), and while one is not created yet.
   */
  private async storedStamps(names: readonly string[], mode: 'read'): Promise<string[]>;
  private async storedStamps(names: readonly string[], mode: 'settled'): Promise<string[] | null>;
  private async storedStamps(
    names: readonly string[],
    mode: 'read' | 'settled',
  ): Promise<string[] | null> {
    const lock = mode === 'settled' ? 'FOR SHARE NOWAIT' : '';
    let rows: (CheckpointRow & { name: string; updated_at: string })[];
    try {
      rows = await this.transactions.readPrepared(
        `checkpoint-stamp-${mode}-${names.length}`,
        `SELECT name, last_seq, last_transaction_id, updated_at FROM projection_checkpoints
         WHERE name IN (${placeholders(names.length)}) ${lock}`,
        [...names],
      );
    } catch (error) {
      if (mode === 'settled' && (error as { code?: string }).code === LOCK_NOT_AVAILABLE) {
        return null;
      }
      throw error;
    }
    const stampOf = new Map(rows.map((row) => [row.name, checkpointStampOf(row)]));
    // A checkpoint not created yet has no stamp to publish.
    if (mode === 'settled' && stampOf.size < names.length) return null;
    return names.map((name) => stampOf.get(name) ?? '');
  }

  /** Every checkpoint, in name order, with the failure that stopped it if any. */
  async states(): Promise<CheckpointState[]> {
    const rows = await this.transactions.query<CheckpointRow & FailureColumns & { name: string }>(
      `SELECT name, last_seq, last_transaction_id, failed_at, failed_event_seq, failed_event_type,
              failed_stream_id, failure
       FROM projection_checkpoints ORDER BY name`,
    );
    return rows.map((row) => ({
      name: row.name,
      position: positionOf(row),
      failure:
        row.failed_at === null
          ? null
          : {
              eventSeq: Number(row.failed_event_seq),
              eventType: row.failed_event_type ?? '',
              streamId: row.failed_stream_id ?? '',
              error: row.failure ?? '',
              failedAt: row.failed_at,
            },
    }));
  }

  /** Stops `name` where its checkpoint stands: claim() leaves it out until clearFailures(). */
  async recordFailure(
    tx: Transaction,
    name: string,
    failure: Omit<ProjectorFailure, 'failedAt'>,
  ): Promise<void> {
    await tx.query(
      `UPDATE projection_checkpoints SET failed_at = $1, failed_event_seq = $2,
         failed_event_type = $3, failed_stream_id = $4, failure = $5
       WHERE name = $6`,
      [
        new Date().toISOString(),
        failure.eventSeq,
        failure.eventType,
        failure.streamId,
        failure.error.slice(0, MAX_FAILURE_LENGTH),
        name,
      ],
    );
  }

  /** Lets failed projectors move again; answers the names that had failed. */
  async clearFailures(names: readonly string[], tx?: Transaction): Promise<string[]> {
    if (!tx) return this.transactions.run((own) => this.clearFailures(names, own));
    const failed = await tx.query<{ name: string }>(
      `SELECT name FROM projection_checkpoints
       WHERE failed_at IS NOT NULL AND name IN (${placeholders(names.length)}) ORDER BY name`,
      [...names],
    );
    if (failed.length === 0) return [];
    await tx.query(
      `UPDATE projection_checkpoints SET failed_at = NULL, failed_event_seq = NULL,
         failed_event_type = NULL, failed_stream_id = NULL, failure = NULL
       WHERE name IN (${placeholders(failed.length)})`,
      failed.map((row) => row.name),
    );
    return failed.map((row) => row.name);
  }

  /**
   * Moves the named projectors' checkpoints to `position`, in one statement. The transaction
   * holds their rows (claim()): on PostgreSQL their published stamps are taken down first.
   */
  async advance(tx: Transaction, names: string[], position: LogPosition): Promise<void> {
    if (tx.dialect === 'postgres') await this.board.unsettle(names);
    await tx.query(
      `UPDATE projection_checkpoints SET last_seq = $1, last_transaction_id = $2, updated_at = $3
       WHERE name IN (${placeholders(names.length, 4)})`,
      [position.seq, position.transactionId, new Date().toISOString(), ...names],
    );
  }
}
