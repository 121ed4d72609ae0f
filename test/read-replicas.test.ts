import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestAndProject } from './support/catalogue-fixture.js';
import { parsePrometheusText } from './support/prometheus-text.js';
import { records } from './support/records.js';
import { ReplicatedPostgres, replicaUnavailableReason } from './support/replicated-postgres.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment, type TestEnvironment } from './support/test-environment.js';
import { waitFor } from './support/wait-for.js';

/*
 * DATABASE_READ_URLS on a real streaming replica (pg_basebackup -R from a primary this file
 * starts itself). Two API processes' worth of applications share the pair: `app` (with the
 * worker) allows a replica a minute of lag, `strict` (no worker) half a second, the setting
 * under test. Which database served a request is read from each application's own metrics.
 */

const unavailable = replicaUnavailableReason();
if (unavailable) console.info(`read-replicas.test.ts skipped: ${unavailable}`);

const REPLICA_SESSION = 'pricing-read-replica';

describe.skipIf(unavailable !== null)('PostgreSQL read replicas', () => {
  let pair: ReplicatedPostgres;
  let environment: TestEnvironment;
  let app: TestApp;
  let strict: TestApp;
  let key: string;
  /** Each read asks a URL not asked before: the lane's cache would answer a repeated one. */
  let reads = 0;
  /** A search finds one company, so its limit and order vary the URL and not the answer. */
  const SORTS = ['name', 'slug', 'category', 'employees', 'created_at', 'updated_at'].flatMap(
    (field) => [field, `-${field}`],
  );

  beforeAll(async () => {
    pair = await ReplicatedPostgres.start();
    environment = testEnvironment({
      DATABASE_URL: pair.primaryUrl,
      DATABASE_READ_URLS: pair.replicaUrl,
      READ_REPLICA_MAX_LAG_MS: '60000',
    });
    app = await startTestApp(environment.config());
    strict = await startTestApp(environment.config({ READ_REPLICA_MAX_LAG_MS: '500' }), {
      withWorker: false,
    });
    key = await app.createKey(['read']);
    await app.settled(await app.ingest([records.company('orbit.io'), records.page('orbit.io')]));
  }, 120_000);

  afterAll(async () => {
    await strict?.close();
    await app?.close();
    await environment?.cleanup();
    await pair?.stop();
  }, 60_000);

  /**
   * A companies search no request asked before: the slugs it found, or its status when it was
   * not a 200 (so that an answer kept inside waitFor, which retries what throws, still fails).
   */
  async function search(target: TestApp, text: string): Promise<string[]> {
    reads += 1;
    const sort = SORTS[Math.floor(reads / 100) % SORTS.length]!;
    const response = await target.request(
      `/api/companies?search=${encodeURIComponent(text)}&limit=${1 + (reads % 100)}&sort=${sort}`,
      { headers: { authorization: `Bearer ${key}` } },
    );
    if (response.status !== 200) return [`HTTP ${response.status}`];
    const body = (await response.json()) as { data: { slug: string }[] };
    return body.data.map((company) => company.slug);
  }

  async function metrics(target: TestApp) {
    const response = await fetch(`${new URL(target.baseUrl).origin}/metrics`);
    return parsePrometheusText(await response.text());
  }

  async function readsFrom(target: TestApp, database: 'primary' | 'replica'): Promise<number> {
    return (await metrics(target)).value('database_reads_total', { target: database }) ?? 0;
  }

  async function replicaUsable(target: TestApp): Promise<number | undefined> {
    const [sample] = (await metrics(target)).series('read_replica_usable');
    return sample?.value;
  }

  /** Searches for `slug` until a read is served by the replica; every answer must find it. */
  async function servedByReplica(target: TestApp, slug: string): Promise<void> {
    const before = await readsFrom(target, 'replica');
    const answers: string[][] = [];
    await waitFor(`a read of ${slug} served by the replica`, async () => {
      answers.push(await search(target, slug));
      return (await readsFrom(target, 'replica')) > before ? true : undefined;
    });
    expect(answers.filter((found) => !found.includes(slug))).toEqual([]);
  }

  /** Settled and projected on the primary: a settled batch may not be in the read models yet. */
  async function ingested(slug: string): Promise<void> {
    await ingestAndProject(app, [records.company(slug), records.page(slug)]);
  }

  it('serves reads from the replica, on its own sessions', async () => {
    await servedByReplica(app, 'orbit.io');
    const replica = new pg.Client({ connectionString: pair.replicaUrl });
    await replica.connect();
    try {
      const { rows } = await replica.query<{ sessions: number }>(
        'SELECT count(*)::int AS sessions FROM pg_stat_activity WHERE application_name = $1',
        [REPLICA_SESSION],
      );
      expect(rows[0]!.sessions).toBeGreaterThan(0);
    } finally {
      await replica.end();
    }
  }, 60_000);

  it('skips a replica lagging more than READ_REPLICA_MAX_LAG_MS, answering from the primary, and uses it again once it catches up', async () => {
    await servedByReplica(strict, 'orbit.io');
    await pair.pauseReplay();
    try {
      // A write that moves no read model: the replica still holds them as the primary has them,
      // and only its lag keeps it from serving them.
      await app.createKey(['read']);
      await waitFor('the replica skipped for its lag', async () =>
        (await replicaUsable(strict)) === 0 ? true : undefined,
      );
      const lag = (await metrics(strict)).series('read_replica_lag_seconds')[0]?.value;
      expect(lag).toBeGreaterThan(0.5);
      const replicaReads = await readsFrom(strict, 'replica');
      for (let read = 0; read < 5; read += 1) {
        expect(await search(strict, 'orbit.io')).toEqual(['orbit.io']);
      }
      expect(await readsFrom(strict, 'replica')).toBe(replicaReads);
      // New data the replica has not replayed is served current, from the primary.
      await ingested('lagging.io');
      for (let read = 0; read < 5; read += 1) {
        expect(await search(strict, 'lagging.io')).toEqual(['lagging.io']);
      }
      expect(await readsFrom(strict, 'replica')).toBe(replicaReads);
    } finally {
      await pair.resumeReplay();
    }
    await waitFor('the replica usable again', async () =>
      (await replicaUsable(strict)) === 1 ? true : undefined,
    );
    await servedByReplica(strict, 'lagging.io');
  }, 60_000);

  it('never answers older than an answer given out: a replica within the lag limit that lacks its data is not used', async () => {
    await servedByReplica(app, 'orbit.io');
    await pair.pauseReplay();
    try {
      await app.settled(await app.ingest([records.scrape('orbit.io', '', '20250115')]));
      // The month's files, given out with an ETag once the worker has applied the scrape.
      const month = '/api/files/orbit.io/month/2025M01';
      const given = await waitFor('the scrape file given out', async () => {
        const response = await app.request(month, {
          headers: { authorization: `Bearer ${key}` },
        });
        const body = (await response.json()) as { count: number };
        return body.count === 1 ? response.headers.get('etag') : undefined;
      });
      expect(given).toBeTruthy();
      const replicaReads = await readsFrom(app, 'replica');
      // Within a minute of lag, the replica is usable for what it holds.
      expect(await replicaUsable(app)).toBe(1);
      for (const path of [
        '/api/files/orbit.io/version/20250115',
        '/api/files/orbit.io/quarter/2025Q1',
      ]) {
        const response = await app.request(path, { headers: { authorization: `Bearer ${key}` } });
        expect(response.status, path).toBe(200);
        expect(((await response.json()) as { count: number }).count, path).toBe(1);
      }
      const revalidated = await app.request(month, {
        headers: { authorization: `Bearer ${key}`, 'if-none-match': given! },
      });
      expect(revalidated.status).toBe(304);
      expect(await readsFrom(app, 'replica')).toBe(replicaReads);
    } finally {
      await pair.resumeReplay();
    }
    await servedByReplica(app, 'orbit.io');
  }, 60_000);

  it('fails back to the primary without an error when the replica stops, and uses it again when it is back', async () => {
    await servedByReplica(app, 'orbit.io');
    const primaryReads = await readsFrom(app, 'primary');
    await pair.stopReplica();
    try {
      // Reads go on at once: those that meet the replica's dropped sessions run again on the primary.
      const answers: string[][] = [];
      await waitFor('the stopped replica skipped', async () => {
        answers.push(await search(app, 'orbit.io'));
        return (await replicaUsable(app)) === 0 ? true : undefined;
      });
      expect(answers.filter((found) => found.join() !== 'orbit.io')).toEqual([]);
      expect(await search(app, 'orbit.io')).toEqual(['orbit.io']);
      expect(await readsFrom(app, 'primary')).toBeGreaterThan(primaryReads);
      const ready = await fetch(`${new URL(app.baseUrl).origin}/health/ready`);
      expect(ready.status).toBe(200);
    } finally {
      await pair.startReplica();
    }
    await ingested('after-restart.io');
    await servedByReplica(app, 'after-restart.io');
  }, 60_000);
});
