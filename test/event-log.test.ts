import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompanyRegistered, streamIds, type CompanyProfile, type EventMetadata } from '#app/domain';
import {
  EventStore,
  PROJECTOR_NAMES,
  StreamConcurrencyError,
  TransactionRunner,
  type PendingAppend,
} from '#app/persistence';
import pg from 'pg';
import { ProjectionRunner } from '../apps/worker/src/projections/projection-runner.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

const environment = testEnvironment();
const postgres = environment.dialect === 'postgres';
let api: TestApp;
let transactions: TransactionRunner;
let eventStore: EventStore;
let runner: ProjectionRunner;

const METADATA: EventMetadata = {
  batch_id: null,
  request_id: null,
  job_id: null,
  content_hash: 'x',
};

const sleep = (ms: number) => new Promise<void>((next) => setTimeout(next, ms));

const profile = (slug: string): CompanyProfile => ({
  slug,
  name: `Company ${slug}`,
  category: 'Productivity',
  employees: '51-200',
  url: `https://${slug}`,
});

/** A CompanyRegistered append: the companies projector turns it into one row with id = seq. */
function registration(slug: string, overrides: Partial<PendingAppend> = {}): PendingAppend {
  return {
    event: new CompanyRegistered(streamIds.company(slug), profile(slug)),
    expectedVersion: 0,
    idempotencyKey: `event-log-test:${slug}`,
    metadata: METADATA,
    ...overrides,
  };
}

async function append(...appends: PendingAppend[]) {
  return transactions.run((tx) => eventStore.append(tx, appends));
}

async function count(table: string, where = '1 = 1', params: unknown[] = []): Promise<number> {
  const [row] = await transactions.query<{ n: number | string }>(
    `SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`,
    params,
  );
  return Number(row?.n);
}

async function checkpoints(): Promise<Map<string, { seq: number; transactionId: string }>> {
  const rows = await transactions.query<{
    name: string;
    last_seq: number | string;
    last_transaction_id: string;
  }>('SELECT name, last_seq, last_transaction_id FROM projection_checkpoints');
  return new Map(
    rows.map((row) => [
      row.name,
      { seq: Number(row.last_seq), transactionId: String(row.last_transaction_id) },
    ]),
  );
}

/** The last event in projection order: (transaction id, seq) on PostgreSQL, seq on SQLite. */
async function logEnd(): Promise<{ seq: number; transactionId: string }> {
  const [row] = await transactions.query<{ seq: number | string; transaction_id: unknown }>(
    'SELECT seq, transaction_id FROM events ORDER BY transaction_id DESC, seq DESC LIMIT 1',
  );
  return { seq: Number(row?.seq ?? 0), transactionId: String(row?.transaction_id ?? '0') };
}

/**
 * Runs catch-ups until every checkpoint stands at the end of the log. A single catchUp() can
 * return early on PostgreSQL when the in-process scheduler holds a checkpoint (SKIP LOCKED), so
 * this waits for the holder too. Errors of catchUp() are not swallowed.
 */
async function drain(timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await runner.catchUp();
    const end = await logEnd();
    const positions = await checkpoints();
    const behind = PROJECTOR_NAMES.filter((name) => {
      const position = positions.get(name);
      return position?.seq !== end.seq || position.transactionId !== end.transactionId;
    });
    if (behind.length === 0) return;
    if (Date.now() > deadline) {
      throw new Error(
        `projections never reached ${JSON.stringify(end)}: ${JSON.stringify([...positions])}`,
      );
    }
    await sleep(25);
  }
}

beforeAll(async () => {
  // The worker brings the ProjectionRunner and a scheduler that keeps polling it (every 50 ms):
  // every guarantee checked here must hold with that second runner racing the test's own.
  api = await startTestApp(environment.config(), { withWorker: true });
  transactions = api.app.get(TransactionRunner);
  eventStore = api.app.get(EventStore);
  runner = api.app.get(ProjectionRunner);
  await runner.ensureCheckpoints();
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

describe('the event log is append-only, enforced by the database', () => {
  it('refuses UPDATE and DELETE of an event row, and leaves the row unchanged', async () => {
    const [event] = await append(registration('immutable.io'));
    const seq = event!.seq;
    const select = () => transactions.query('SELECT * FROM events WHERE seq = $1', [seq]);
    const before = await select();
    expect(before).toHaveLength(1);
    const total = await count('events');

    await expect(
      transactions.query('UPDATE events SET payload = $1 WHERE seq = $2', ['{}', seq]),
    ).rejects.toThrow(/append-only: UPDATE refused/);
    await expect(
      transactions.query('UPDATE events SET stream_version = stream_version + 1000'),
    ).rejects.toThrow(/append-only: UPDATE refused/);
    await expect(transactions.query('DELETE FROM events WHERE seq = $1', [seq])).rejects.toThrow(
      /append-only: DELETE refused/,
    );
    // Without WHERE too: SQLite's truncate optimisation must not skip the trigger.
    await expect(transactions.query('DELETE FROM events')).rejects.toThrow(
      /append-only: DELETE refused/,
    );
    // Inside an application transaction the refusal rolls everything back.
    await expect(
      transactions.run(async (tx) => {
        await tx.query('DELETE FROM events WHERE seq = $1', [seq]);
      }),
    ).rejects.toThrow(/append-only: DELETE refused/);

    expect(await select()).toEqual(before);
    expect(await count('events')).toBe(total);
  });

  it.runIf(postgres)('refuses TRUNCATE on PostgreSQL', async () => {
    await append(registration('truncate-proof.io'));
    const before = await transactions.query('SELECT * FROM events ORDER BY seq');
    await expect(transactions.query('TRUNCATE events')).rejects.toThrow(
      /append-only: TRUNCATE refused/,
    );
    await expect(transactions.query('TRUNCATE TABLE events RESTART IDENTITY')).rejects.toThrow(
      /append-only: TRUNCATE refused/,
    );
    expect(await transactions.query('SELECT * FROM events ORDER BY seq')).toEqual(before);
  });

  it('refuses an upsert that would overwrite an event (INSERT OR REPLACE / ON CONFLICT DO UPDATE)', async () => {
    const [event] = await append(registration('no-replace.io'));
    const select = () =>
      transactions.query('SELECT * FROM events WHERE stream_id = $1', [event!.streamId]);
    const before = await select();
    // A type no projector handles: should the database let it through, the read models stay sound.
    const values = `($1, 1, 'test.forged.v1', 1, '{}', '{}', $2, $3)`;
    const columns =
      'stream_id, stream_version, type, schema_version, payload, metadata, idempotency_key, recorded_at';
    const upsert = postgres
      ? `INSERT INTO events (${columns}) VALUES ${values}
         ON CONFLICT (idempotency_key) DO UPDATE SET payload = EXCLUDED.payload`
      : `INSERT OR REPLACE INTO events (${columns}) VALUES ${values}`;
    // A REPLACE deletes the conflicting row: that is a DELETE of an event and must be refused.
    await expect(
      transactions.query(upsert, [
        event!.streamId,
        'event-log-test:no-replace.io',
        new Date().toISOString(),
      ]),
    ).rejects.toThrow(/append-only/);
    expect(await select()).toEqual(before);
  });
});

describe('appends are optimistic on (stream, version) and on the idempotency key', () => {
  it('refuses a second event at the same stream version, and a reused idempotency key', async () => {
    await append(registration('occ.io', { idempotencyKey: 'occ-key-1' }));

    // Same stream, same expected version, a new key: the stream moved on.
    await expect(append(registration('occ.io', { idempotencyKey: 'occ-key-2' }))).rejects.toThrow(
      StreamConcurrencyError,
    );
    // Another stream, but the idempotency key of the first append: the same command twice.
    await expect(
      append(registration('occ-other.io', { idempotencyKey: 'occ-key-1' })),
    ).rejects.toThrow(StreamConcurrencyError);
    // A batch in which one append conflicts appends nothing at all.
    await expect(
      append(
        registration('occ-batch.io', { idempotencyKey: 'occ-key-3' }),
        registration('occ.io', { idempotencyKey: 'occ-key-4' }),
      ),
    ).rejects.toThrow(StreamConcurrencyError);

    expect(await count('events', 'stream_id = $1', ['company-occ.io'])).toBe(1);
    expect(await count('events', 'stream_id = $1', ['company-occ-other.io'])).toBe(0);
    expect(await count('events', 'stream_id = $1', ['company-occ-batch.io'])).toBe(0);
    expect(await count('events', "idempotency_key LIKE 'occ-key-%'")).toBe(1);
    expect(await count('events', 'idempotency_key = $1', ['occ-key-1'])).toBe(1);
  });

  it('lets exactly one of several concurrent appends at the same stream version win', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        transactions.run(async (tx) => {
          const appended = await eventStore.append(tx, [
            registration('occ-race.io', { idempotencyKey: `occ-race-${i}` }),
          ]);
          await sleep(20); // keep the transaction open so the others collide with it
          return appended;
        }),
      ),
    );
    const rejected = results.filter((result) => result.status === 'rejected');
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(rejected).toHaveLength(5);
    for (const failure of rejected) {
      expect((failure as PromiseRejectedResult).reason).toBeInstanceOf(StreamConcurrencyError);
    }
    expect(await count('events', 'stream_id = $1', ['company-occ-race.io'])).toBe(1);
  });
});

describe('projections skip no event under concurrency', () => {
  it.runIf(postgres)(
    'does not step past an event whose transaction commits after a later-seq event',
    async () => {
      await drain();
      const client = new pg.Client({ connectionString: environment.env.DATABASE_URL });
      await client.connect();
      let open = false;
      try {
        await client.query(`SET search_path TO "${environment.env.DATABASE_SCHEMA}"`);
        await client.query('BEGIN');
        open = true;
        // A takes the lower seq and the lower transaction id, and does not commit yet.
        const inserted = await client.query<{ seq: string; transaction_id: string }>(
          `INSERT INTO events (stream_id, stream_version, type, schema_version, payload, metadata,
                               idempotency_key, recorded_at)
           VALUES ($1, 1, $2, 1, $3, $4, $5, $6) RETURNING seq, transaction_id`,
          [
            streamIds.company('slow-a.io'),
            CompanyRegistered.TYPE,
            JSON.stringify(profile('slow-a.io')),
            JSON.stringify(METADATA),
            'event-log-test:slow-a.io',
            new Date().toISOString(),
          ],
        );
        const seqA = Number(inserted.rows[0]!.seq);

        // B is appended and committed after A took its seq.
        const [eventB] = await append(registration('fast-b.io'));
        const seqB = eventB!.seq;
        expect(seqB).toBeGreaterThan(seqA);
        expect(await count('events', 'seq = $1', [seqB])).toBe(1); // B is committed and visible

        // A reader that trusted `seq > checkpoint` would project B now and later skip A.
        await runner.catchUp();
        await sleep(500); // the in-process scheduler polls meanwhile: it must hold back too
        await runner.catchUp();
        expect(await count('companies', 'slug = $1', ['fast-b.io'])).toBe(0);
        expect(await count('companies', 'slug = $1', ['slow-a.io'])).toBe(0);
        for (const [name, position] of await checkpoints()) {
          expect(position.seq, `checkpoint ${name}`).toBeLessThan(seqA);
          expect(position.seq, `checkpoint ${name}`).toBeLessThan(seqB);
        }

        await client.query('COMMIT');
        open = false;
        await drain();
        const rows = await transactions.query<{ id: number | string; slug: string }>(
          'SELECT id, slug FROM companies WHERE slug IN ($1, $2) ORDER BY slug',
          ['fast-b.io', 'slow-a.io'],
        );
        expect(rows.map((row) => [Number(row.id), row.slug])).toEqual([
          [seqB, 'fast-b.io'],
          [seqA, 'slow-a.io'],
        ]);
      } finally {
        if (open) await client.query('ROLLBACK').catch(() => undefined);
        await client.end();
      }
    },
  );

  it('projects every event exactly once while 8 appenders write and catch-ups keep running', async () => {
    const appenders = 8;
    const perAppender = 50;
    let writing = true;
    let catchUps = 0;
    const catchUpLoop = (async () => {
      while (writing) {
        await runner.catchUp();
        catchUps++;
        await sleep(1);
      }
    })();
    const writers = Array.from({ length: appenders }, async (_, writer) => {
      for (let i = 0; i < perAppender; i++) {
        await transactions.run(async (tx) => {
          await eventStore.append(tx, [registration(`load-${writer}-${i}.io`)]);
          // Hold the transaction a little: on PostgreSQL commits then land out of seq order.
          await sleep(Math.floor(Math.random() * 4));
        });
      }
    });
    try {
      await Promise.all(writers);
    } finally {
      writing = false;
      await catchUpLoop;
    }
    expect(catchUps).toBeGreaterThan(0);
    await drain();

    expect(await count('companies', "slug LIKE 'load-%'")).toBe(appenders * perAppender);
    // Every registration has its company, exactly once, under its own seq.
    const rows = await transactions.query<{ seq: number | string; matches: number | string }>(
      `SELECT e.seq AS seq, (SELECT COUNT(*) FROM companies c WHERE c.id = e.seq) AS matches
       FROM events e WHERE e.stream_id LIKE 'company-load-%'`,
    );
    expect(rows).toHaveLength(appenders * perAppender);
    expect(rows.filter((row) => Number(row.matches) !== 1)).toEqual([]);
    const slugs = await transactions.query<{ slug: string }>(
      "SELECT slug FROM companies WHERE slug LIKE 'load-%'",
    );
    const expected = Array.from({ length: appenders }, (_, w) =>
      Array.from({ length: perAppender }, (_, i) => `load-${w}-${i}.io`),
    ).flat();
    expect(slugs.map((row) => row.slug).sort()).toEqual(expected.sort());
  });
});

describe('projections apply each event at most once', () => {
  it('never inserts a row twice when catch-ups race each other while events arrive', async () => {
    const rounds = 10;
    const perRound = 10;
    for (let round = 0; round < rounds; round++) {
      const appends = Promise.all(
        Array.from({ length: perRound }, (_, i) => append(registration(`race-${round}-${i}.io`))),
      );
      // A duplicate insert would violate the companies primary key and reject a catch-up.
      const results = await Promise.allSettled([runner.catchUp(), runner.catchUp(), appends]);
      expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    }
    const racing = await Promise.allSettled([runner.catchUp(), runner.catchUp()]);
    expect(racing.filter((result) => result.status === 'rejected')).toEqual([]);
    await drain();
    expect(await count('companies', "slug LIKE 'race-%'")).toBe(rounds * perRound);
    const applied = await transactions.query<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM events e
       WHERE e.stream_id LIKE 'company-race-%'
         AND NOT EXISTS (SELECT 1 FROM companies c WHERE c.id = e.seq)`,
    );
    expect(Number(applied[0]?.n)).toBe(0);
  });

  it.runIf(postgres)(
    'applies each event once when two worker instances (own pools and schedulers) race',
    async () => {
      const second = await startTestApp(environment.config(), { withWorker: true });
      try {
        const otherRunner = second.app.get(ProjectionRunner);
        const otherTransactions = second.app.get(TransactionRunner);
        const otherStore = second.app.get(EventStore);
        for (let round = 0; round < 8; round++) {
          const appends = Promise.all(
            Array.from({ length: 10 }, (_, i) =>
              i % 2 === 0
                ? append(registration(`two-workers-${round}-${i}.io`))
                : otherTransactions.run((tx) =>
                    otherStore.append(tx, [registration(`two-workers-${round}-${i}.io`)]),
                  ),
            ),
          );
          const results = await Promise.allSettled([
            runner.catchUp(),
            otherRunner.catchUp(),
            runner.catchUp(),
            otherRunner.catchUp(),
            appends,
          ]);
          expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
        }
        await drain();
        expect(await count('companies', "slug LIKE 'two-workers-%'")).toBe(80);
      } finally {
        await second.close();
      }
    },
  );
});
