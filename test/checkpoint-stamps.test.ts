import { setTimeout } from 'node:timers/promises';
import { CheckpointStampBoard, CheckpointStore, TransactionRunner } from '#app/persistence';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestAndProject } from './support/catalogue-fixture.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';
import { waitFor } from './support/wait-for.js';

/*
 * The checkpoint stamps an API process keeps answers under: on PostgreSQL published on Redis,
 * so a kept companies answer needs no database read, and never older than the database's. The
 * projector side runs here through CheckpointStore as the projection runner calls it (claim,
 * advance, commit), so each step of the protocol can be held open while the other side reads.
 */
const environment = testEnvironment();
let api: TestApp;
let checkpoints: CheckpointStore;
let board: CheckpointStampBoard;
let transactions: TransactionRunner;
const NAMES = ['companies', 'pages'];

beforeAll(async () => {
  api = await startTestApp(environment.config());
  checkpoints = api.app.get(CheckpointStore);
  board = api.app.get(CheckpointStampBoard);
  transactions = api.app.get(TransactionRunner);
  await ingestAndProject(api, [records.company('stamp.io'), records.page('stamp.io')]);
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

const stampNow = () => checkpoints.currentStamp(NAMES);

/** Moves the checkpoints in a transaction that commits when `commit` is called. */
function holdAdvance() {
  let commit!: () => void;
  const committing = new Promise<void>((resolve) => (commit = resolve));
  let advanced!: () => void;
  const advancedNow = new Promise<void>((resolve) => (advanced = resolve));
  const done = transactions.run(async (tx) => {
    const positions = await checkpoints.claim(tx, NAMES, { wait: true });
    const position = positions.get('companies')!;
    await checkpoints.advance(tx, NAMES, { ...position });
    advanced();
    await committing;
  });
  return { advancedNow, commit: async () => (commit(), await done) };
}

describe.runIf(environment.dialect === 'postgres')('checkpoint stamps on PostgreSQL', () => {
  it('publishes the stamp a request read, and answers the next from Redis alone', async () => {
    const first = await stampNow();
    const published = await board.read(NAMES);
    expect(published.stamps.join(' ')).toBe(first);
    // Behind the API's back (no projector): the published stamp stands, the database moved.
    await transactions.query(
      "UPDATE projection_checkpoints SET updated_at = 'out of band' WHERE name = 'pages'",
    );
    expect(await stampNow()).toBe(first);
  });

  it('takes a stamp down when a projector moves, and publishes none while it holds the row', async () => {
    await stampNow();
    expect((await board.read(NAMES)).stamps).not.toContain(null);
    const projector = holdAdvance();
    await projector.advancedNow;
    expect((await board.read(NAMES)).stamps).toEqual([null, null]);
    // Read while the projector holds the rows: the committed stamp, not published.
    const committed = await databaseStamp();
    expect(await stampNow()).toBe(committed);
    expect((await board.read(NAMES)).stamps).toEqual([null, null]);
    await projector.commit();
    const after = await publishedByAReader();
    expect(after).not.toBe(committed);
    expect(after).toBe(await databaseStamp());
  });

  it('drops a publication read before a projector moved the fence', async () => {
    const seen = await board.read(NAMES);
    const projector = holdAdvance();
    await projector.advancedNow;
    await projector.commit();
    await board.publish(NAMES, seen.fences, ['older', 'older']);
    expect((await board.read(NAMES)).stamps).toEqual([null, null]);
    // A later reader publishes the database's stamp under the new fence.
    expect(await publishedByAReader()).toBe(await databaseStamp());
  });

  it('has the requests that find no stamp share one database read, a stalled one included', async () => {
    // No stamp on Redis, current or lapsed, and the checkpoint table locked by another session.
    await board.unsettle(NAMES);
    const stall = new pg.Client({ connectionString: environment.env.DATABASE_URL });
    const observer = new pg.Client({ connectionString: environment.env.DATABASE_URL });
    await Promise.all([stall.connect(), observer.connect()]);
    try {
      await stall.query(`SET search_path = ${environment.env.DATABASE_SCHEMA}`);
      await stall.query('BEGIN');
      await stall.query('LOCK TABLE projection_checkpoints IN ACCESS EXCLUSIVE MODE');
      const {
        rows: [{ pid: stallPid }],
      } = await stall.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const stamps = Array.from({ length: 8 }, () => stampNow());
      // Asked on a session of its own: the app's pool may have no connection left to ask on,
      // and the stalling one sees pg_stat_activity as its transaction began. The stamp read by
      // its text: the projection runner's claim waits for the lock too.
      const blockedStampReads = async () => {
        const { rows } = await observer.query<{ count: number }>(
          `SELECT COUNT(*)::int AS count FROM pg_stat_activity
           WHERE $1 = ANY(pg_blocking_pids(pid)) AND wait_event_type = 'Lock'
             AND query LIKE '%updated_at FROM projection_checkpoints%'`,
          [stallPid],
        );
        return rows[0]!.count;
      };
      await waitFor('a stamp read to wait for the lock', async () =>
        (await blockedStampReads()) > 0 ? true : undefined,
      );
      // Time for any other request's read to reach the lock: none does, one connection waits.
      await setTimeout(200);
      expect(await blockedStampReads()).toBe(1);
      await stall.query('ROLLBACK');
      const read = await Promise.all(stamps);
      expect(read).toEqual(Array(8).fill(await databaseStamp()));
    } finally {
      await Promise.all([stall.end(), observer.end()]);
    }
  });
});

describe.runIf(environment.dialect === 'sqlite')('checkpoint stamps on SQLite', () => {
  it('are read from the database file, and nothing is published', async () => {
    expect(await checkpoints.publishedStamps(NAMES)).toBeNull();
    const before = await checkpoints.stamp(NAMES, null);
    await ingestAndProject(api, [records.company('stamp2.io')]);
    expect(await checkpoints.stamp(NAMES, null)).not.toBe(before);
  });
});

/**
 * The stamp the next reader that finds the checkpoint rows free reads and publishes. The worker
 * in this process claims them on each tick of its projection loop, and a reader that meets that
 * lock answers from the database without publishing, so readers come until one publishes.
 */
function publishedByAReader(): Promise<string> {
  return waitFor('a reader to publish the stamp it read', async () => {
    const read = await stampNow();
    return (await board.read(NAMES)).stamps.join(' ') === read ? read : undefined;
  });
}

/** The named checkpoints' stamp as the database holds it now. */
async function databaseStamp(): Promise<string> {
  const rows = await transactions.query<{ stamp: string }>(
    `SELECT last_transaction_id || '.' || last_seq || '.' || updated_at AS stamp
     FROM projection_checkpoints WHERE name IN ('companies', 'pages') ORDER BY name`,
  );
  return rows.map((row) => row.stamp).join(' ');
}
