import { randomUUID } from 'node:crypto';
import { setTimeout } from 'node:timers/promises';
import Database from 'better-sqlite3';
import pg from 'pg';
import { STAMP_LIFETIME_MS } from '#app/persistence';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestAndProject } from './support/catalogue-fixture.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/**
 * A database that stalls: another session holds the locks the service needs. No statement waits
 * more than DATABASE_STATEMENT_TIMEOUT_MS (a test of that setting: 2 s here, 5 s by default):
 * past it the request is 503 with Retry-After in its route's shape and nothing is half-written,
 * while an answer the read lane keeps needs nothing from the database and is sent at once, a
 * key's first use of the minute included (its last-use time is written in the background).
 */

const STATEMENT_TIMEOUT_MS = 2_000;
/** Far below the statement timeout: an answer that waited for the database would miss it. */
const AT_ONCE_MS = 1_000;

const environment = testEnvironment({
  DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
});
let api: TestApp;
let key: string;
const adminHeaders = {
  authorization: `Bearer ${environment.env.ADMIN_TOKEN}`,
  'content-type': 'application/json',
};

/** Another session that holds the given locks until released. */
interface Stall {
  release(): Promise<void>;
}

/**
 * PostgreSQL: another session holds `locks` (LOCK TABLE in a transaction). By default key writes
 * and every read of the catalogue wait: EXCLUSIVE lets a key be read, not written; ACCESS
 * EXCLUSIVE lets no one read companies.
 */
async function stallPostgres(
  locks = ['api_keys IN EXCLUSIVE MODE', 'companies IN ACCESS EXCLUSIVE MODE'],
): Promise<Stall> {
  const client = new pg.Client({ connectionString: environment.env.DATABASE_URL });
  await client.connect();
  await client.query(`SET search_path = ${environment.env.DATABASE_SCHEMA}`);
  await client.query('BEGIN');
  for (const lock of locks) await client.query(`LOCK TABLE ${lock}`);
  return {
    async release() {
      await client.query('ROLLBACK');
      await client.end();
    },
  };
}

/** SQLite: another connection holds the write lock (readers never wait for it, in WAL mode). */
async function stallSqlite(): Promise<Stall> {
  const connection = new Database(environment.env.DATABASE_URL!.slice('sqlite:'.length));
  connection.exec('BEGIN IMMEDIATE');
  return {
    async release() {
      connection.exec('ROLLBACK');
      connection.close();
    },
  };
}

beforeAll(async () => {
  api = await startTestApp(environment.config());
  key = await api.createKey(['read']);
  await ingestAndProject(api, [
    records.company('stall.io'),
    records.page('stall.io'),
    records.scrape('stall.io', '', '20250301'),
  ]);
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

const get = (path: string, withKey: string, signal?: AbortSignal) =>
  fetch(`${api.baseUrl}${path}`, { headers: { authorization: `Bearer ${withKey}` }, signal });

describe('a stalled database', () => {
  it('holds no kept answer, and answers 503 with Retry-After past the statement timeout, writing nothing', async () => {
    const kept = ['/api/companies/stall.io', '/api/files/stall.io/version/20250301'];
    for (const path of kept) expect((await get(path, key)).status, path).toBe(200);
    // A key this process has looked up but not used this minute: its use is due to be noted.
    const fresh = await api.createKey(['read']);

    const stall = environment.dialect === 'postgres' ? await stallPostgres() : await stallSqlite();
    try {
      // A write waiting for the lock meanwhile holds its own request only.
      const deleting = fetch(`${api.baseUrl}/api/webhooks/${randomUUID()}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${key}` },
      });
      for (const path of kept) {
        const answer = await get(path, fresh, AbortSignal.timeout(AT_ONCE_MS));
        expect(answer.status, path).toBe(200);
      }
      expect((await deleting).status).toBe(environment.dialect === 'postgres' ? 404 : 503);

      const created = await fetch(`${api.baseUrl}/admin/keys`, {
        method: 'POST',
        headers: adminHeaders,
        body: JSON.stringify({ name: 'during-the-stall', plan: 'free' }),
      });
      expect(created.status).toBe(503);
      expect(created.headers.get('retry-after')).toBe('5');
      expect(await created.json()).toMatchObject({
        error: 'Service Unavailable',
        details: { retry_after: 5 },
      });

      // Readers wait only on PostgreSQL: SQLite's readers never wait for a writer.
      if (environment.dialect === 'postgres') {
        const list = await get('/api/companies?search=stall', key);
        expect(list.status).toBe(503);
        expect(await list.json()).toMatchObject({ error: 'Service Unavailable' });
        const files = await get('/api/files/stall.io/quarter/2025Q1', key);
        expect(files.status).toBe(503);
        expect(files.headers.get('retry-after')).toBe('5');
        expect(await files.json()).toMatchObject({
          code: 'SERVICE_UNAVAILABLE',
          details: { retry_after: 5 },
        });
      }
    } finally {
      await stall.release();
    }

    const keys = (await (
      await fetch(`${api.baseUrl}/admin/keys`, { headers: adminHeaders })
    ).json()) as { data: { name: string }[] };
    expect(keys.data.map(({ name }) => name)).not.toContain('during-the-stall');
    expect((await get('/api/companies?search=stall', key)).status).toBe(200);
  });

  // PostgreSQL only: the stamps of the read models are published on Redis there (SQLite reads
  // its own file, and its readers never wait).
  it.runIf(environment.dialect === 'postgres')(
    'goes on with lapsed stamps when the database cannot give the current ones in time',
    async () => {
      const path = '/api/files/stall.io/version/20250301';
      expect((await get(path, key)).status).toBe(200);
      const stall = await stallPostgres(['projection_checkpoints IN ACCESS EXCLUSIVE MODE']);
      try {
        // A stall past the stamps' lifetime: no one can publish them anew meanwhile.
        await setTimeout(STAMP_LIFETIME_MS + 500);
        const answer = await get(path, key, AbortSignal.timeout(AT_ONCE_MS));
        expect(answer.status).toBe(200);
      } finally {
        await stall.release();
      }
    },
  );
});
