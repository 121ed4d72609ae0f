import { Injectable } from '@nestjs/common';
import type { EventMetadata, RecordedEvent, RegisteredEvent } from '#app/domain';
import { isUniqueViolation, MAX_PARAMETERS, placeholders } from '../sql.js';
import { Transaction, TransactionRunner } from '../transaction-runner.js';
import { StreamConcurrencyError } from './concurrency.error.js';

export interface PendingAppend {
  /**
   * Of a registered type (EVENT_CLASSES in libs/domain), so that the log holds nothing
   * decodeEvent cannot read.
   */
  event: RegisteredEvent;
  /** The stream's version before this event (0 for a new stream). */
  expectedVersion: number;
  /** Unique across the whole log: the same command applied twice cannot append twice. */
  idempotencyKey: string;
  metadata: EventMetadata;
}

/** A position in the log as projectors walk it: (transaction id, seq); SQLite's id is always 0. */
export interface LogPosition {
  transactionId: string;
  seq: number;
}

export interface PositionedEvent {
  event: RecordedEvent;
  position: LogPosition;
}

interface EventRow {
  seq: number | string;
  stream_id: string;
  stream_version: number;
  type: string;
  schema_version: number;
  payload: string;
  metadata: string;
  recorded_at: string | Date;
  transaction_id: string | number;
}

function chunks<T>(items: T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) {
    result.push(items.slice(start, start + size));
  }
  return result;
}

const COLUMNS =
  'seq, stream_id, stream_version, type, schema_version, payload, metadata, recorded_at, transaction_id';

/**
 * The append-only event log. There is deliberately no method that updates or deletes a row,
 * and on PostgreSQL a trigger refuses both.
 */
@Injectable()
export class EventStore {
  constructor(private readonly transactions: TransactionRunner) {}

  /** Appends in one statement; throws StreamConcurrencyError when a stream version is taken. */
  async append(tx: Transaction, appends: PendingAppend[]): Promise<RecordedEvent[]> {
    if (appends.length === 0) return [];
    const recordedAt = new Date().toISOString();
    const params: unknown[] = [];
    const tuples = appends.map(({ event, expectedVersion, idempotencyKey, metadata }) => {
      const base = params.length;
      params.push(
        event.streamId,
        expectedVersion + 1,
        event.type,
        event.schemaVersion,
        JSON.stringify(event.payload),
        JSON.stringify(metadata),
        idempotencyKey,
        recordedAt,
      );
      return `(${placeholders(8, base + 1)})`;
    });
    try {
      const rows = await tx.query<EventRow>(
        `INSERT INTO events (stream_id, stream_version, type, schema_version, payload, metadata, idempotency_key, recorded_at)
         VALUES ${tuples.join(', ')} RETURNING ${COLUMNS}`,
        params,
      );
      return rows.map(toRecordedEvent).sort((a, b) => a.seq - b.seq);
    } catch (error) {
      if (
        isUniqueViolation(
          error,
          'uq_events_stream_version',
          'events.stream_id, events.stream_version',
        )
      ) {
        throw new StreamConcurrencyError(
          `a stream among ${[...new Set(appends.map((a) => a.event.streamId))].join(', ')} moved on`,
        );
      }
      // A taken idempotency key means the same command won a race: the caller re-reads the stream.
      if (isUniqueViolation(error, 'uq_events_idempotency_key', 'events.idempotency_key')) {
        throw new StreamConcurrencyError('the same command was applied concurrently');
      }
      throw error;
    }
  }

  /** The events of each stream, in stream order; a stream with no event is absent. */
  async readStreams(tx: Transaction, streamIds: string[]): Promise<Map<string, RecordedEvent[]>> {
    const streams = new Map<string, RecordedEvent[]>();
    for (const chunk of chunks([...new Set(streamIds)], MAX_PARAMETERS)) {
      const rows = await tx.query<EventRow>(
        `SELECT ${COLUMNS} FROM events WHERE stream_id IN (${placeholders(chunk.length)})
         ORDER BY stream_id, stream_version`,
        chunk,
      );
      for (const row of rows) {
        const events = streams.get(row.stream_id) ?? [];
        events.push(toRecordedEvent(row));
        streams.set(row.stream_id, events);
      }
    }
    return streams;
  }

  /**
   * For each prefix, the first event of every stream whose id starts with it, by stream id; a
   * prefix no stream has is absent.
   */
  async readStreamStartsWithPrefixes(
    tx: Transaction,
    prefixes: string[],
  ): Promise<Map<string, RecordedEvent[]>> {
    const starts = new Map<string, RecordedEvent[]>();
    for (const chunk of chunks([...new Set(prefixes)], MAX_PARAMETERS / 2)) {
      // Half-open ranges on the (stream_id, stream_version) index instead of LIKE, whose
      // wildcards would need escaping and which an index serves only under some collations.
      const ranges = chunk.map(
        (_, i) => `(stream_id >= $${2 * i + 1} AND stream_id < $${2 * i + 2})`,
      );
      const rows = await tx.query<EventRow>(
        `SELECT ${COLUMNS} FROM events WHERE stream_version = 1 AND (${ranges.join(' OR ')})
         ORDER BY stream_id`,
        chunk.flatMap((prefix) => [prefix, `${prefix}\u{10FFFF}`]),
      );
      for (const row of rows) {
        for (const prefix of chunk.filter((candidate) => row.stream_id.startsWith(candidate))) {
          const events = starts.get(prefix) ?? [];
          events.push(toRecordedEvent(row));
          starts.set(prefix, events);
        }
      }
    }
    return starts;
  }

  /**
   * For each prefix, the first event of its last stream by stream id, among the streams that
   * start with it and began before `before` in projection order; a prefix with none is absent.
   */
  async readLastStreamStartsBefore(
    tx: Transaction,
    prefixes: string[],
    before: LogPosition,
  ): Promise<Map<string, RecordedEvent>> {
    const last = new Map<string, RecordedEvent>();
    for (const chunk of chunks([...new Set(prefixes)], MAX_PARAMETERS / 2 - 2)) {
      const [earlier, params] =
        tx.dialect === 'postgres'
          ? ['(transaction_id, seq) < ($1::xid8, $2::bigint)', [before.transactionId, before.seq]]
          : ['seq < $2', [before.transactionId, before.seq]];
      // One backward range read of the (stream_id, stream_version) index per prefix.
      const selects = chunk.map((_, i) => {
        const from = 2 * i + 3;
        return `SELECT * FROM (SELECT ${COLUMNS} FROM events
          WHERE stream_id >= $${from} AND stream_id < $${from + 1} AND stream_version = 1
            AND ${earlier}
          ORDER BY stream_id DESC LIMIT 1) AS last_${i}`;
      });
      const rows = await tx.query<EventRow>(selects.join(' UNION ALL '), [
        ...params,
        ...chunk.flatMap((prefix) => [prefix, `${prefix}\u{10FFFF}`]),
      ]);
      for (const row of rows) {
        const prefix = chunk.find((candidate) => row.stream_id.startsWith(candidate));
        if (prefix !== undefined) last.set(prefix, toRecordedEvent(row));
      }
    }
    return last;
  }

  /**
   * Events after `after` in projection order, at most `limit`. On PostgreSQL a transaction can
   * commit a lower seq after a higher one is visible; reading only transactions older than the
   * snapshot's xmin (none of which can still commit) and ordering by (transaction, seq) means
   * a projector never steps past an event that has yet to appear.
   */
  async readForProjection(
    tx: Transaction,
    after: LogPosition,
    limit: number,
  ): Promise<PositionedEvent[]> {
    const rows =
      tx.dialect === 'postgres'
        ? await tx.query<EventRow>(
            `SELECT ${COLUMNS} FROM events
             WHERE (transaction_id, seq) > ($1::xid8, $2::bigint)
               AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
             ORDER BY transaction_id, seq
             LIMIT $3`,
            [after.transactionId, after.seq, limit],
          )
        : await tx.query<EventRow>(
            `SELECT ${COLUMNS} FROM events WHERE seq > $1 ORDER BY seq LIMIT $2`,
            [after.seq, limit],
          );
    return rows.map((row) => ({
      event: toRecordedEvent(row),
      position: { transactionId: String(row.transaction_id), seq: Number(row.seq) },
    }));
  }

  /**
   * Whether the log holds events after `after` in projection order, including events that
   * readForProjection still holds back because an older transaction is open.
   */
  async hasEventsAfter(after: LogPosition): Promise<boolean> {
    const rows =
      this.transactions.dialect === 'postgres'
        ? await this.transactions.query(
            'SELECT 1 FROM events WHERE (transaction_id, seq) > ($1::xid8, $2::bigint) LIMIT 1',
            [after.transactionId, after.seq],
          )
        : await this.transactions.query('SELECT 1 FROM events WHERE seq > $1 LIMIT 1', [after.seq]);
    return rows.length > 0;
  }

  /**
   * How many events lie after `after` in projection order (counted up to `cap`), and when the
   * first of them was recorded.
   */
  async backlogAfter(
    after: LogPosition,
    cap: number,
  ): Promise<{ events: number; oldestRecordedAt: Date | null }> {
    const [pending, order, params] =
      this.transactions.dialect === 'postgres'
        ? [
            'FROM events WHERE (transaction_id, seq) > ($1::xid8, $2::bigint)',
            'transaction_id, seq',
            [after.transactionId, after.seq],
          ]
        : ['FROM events WHERE seq > $1', 'seq', [after.seq]];
    const [count] = await this.transactions.query<{ events: number | string }>(
      `SELECT COUNT(*) AS events FROM (SELECT 1 ${pending} LIMIT ${Number(cap)}) AS backlog`,
      params,
    );
    const [first] = await this.transactions.query<{ recorded_at: string | Date }>(
      `SELECT recorded_at ${pending} ORDER BY ${order} LIMIT 1`,
      params,
    );
    return {
      events: Number(count?.events ?? 0),
      oldestRecordedAt: first ? new Date(first.recorded_at) : null,
    };
  }

  /** The highest seq in the log (0 when empty). */
  async headSeq(): Promise<number> {
    const [row] = await this.transactions.query<{ head: number | string | null }>(
      'SELECT MAX(seq) AS head FROM events',
    );
    return Number(row?.head ?? 0);
  }
}

function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    seq: Number(row.seq),
    streamId: row.stream_id,
    streamVersion: Number(row.stream_version),
    type: row.type,
    schemaVersion: Number(row.schema_version),
    payload: JSON.parse(row.payload) as unknown,
    metadata: JSON.parse(row.metadata) as RecordedEvent['metadata'],
    recordedAt: row.recorded_at instanceof Date ? row.recorded_at.toISOString() : row.recorded_at,
  };
}
