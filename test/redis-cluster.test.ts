import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRedisConnection, type CompanyRecord } from '#app/contracts';
import { TransactionRunner } from '#app/persistence';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectionRunner } from '../apps/worker/src/projections/projection-runner.js';
import { getJson, ingestAndProject } from './support/catalogue-fixture.js';
import { runCli } from './support/cli-process.js';
import { expectThirtyOfSixtyServed } from './support/metering.js';
import { records } from './support/records.js';
import { clusterUnavailableReason, RedisCluster } from './support/redis-cluster.js';
import { keysMatching } from './support/redis-keys.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment, type TestEnvironment } from './support/test-environment.js';
import { waitFor } from './support/wait-for.js';
import { Receiver } from './support/webhook-receiver.js';

/**
 * The service with REDIS_CLUSTER_NODES instead of REDIS_URL, on a real Redis Cluster of three
 * masters with a replica each: every Redis user (queues, metering, batch manifests, webhook
 * deliveries, key revocations, the dashboard) works through the cluster client, a master
 * that fails over in the middle of ingestion loses no accepted record, and neither does one
 * killed right after accepting: a batch is accepted only once a replica holds its jobs.
 */

const unavailable = clusterUnavailableReason();
if (unavailable) console.warn(`Redis Cluster tests skipped: ${unavailable}`);

const READ_FEATURES = ['companies', 'pages', 'files', 'pricing'];
const PLANS = {
  thirty: { requests_per_hour: 30, credits_per_month: 1_000, features: READ_FEATURES },
  // The test app's own keys and the catalogue fixture's use it.
  enterprise: {
    requests_per_hour: 10_000,
    credits_per_month: 100_000,
    features: [...READ_FEATURES, 'webhooks'],
  },
};
const VERSION = '20251016';

describe.skipIf(unavailable !== null)('the service on a Redis Cluster', () => {
  const plansDirectory = mkdtempSync(join(tmpdir(), 'cluster-plans-'));
  let cluster: RedisCluster;
  let environment: TestEnvironment;
  let api: TestApp;
  let readKey: string;

  const admin = (method: string, path: string, body?: unknown) =>
    api.request(path, {
      method,
      headers: {
        authorization: `Bearer ${environment.env.ADMIN_TOKEN}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  const postRecords = (ingestKey: string, batch: CompanyRecord[]) =>
    api.request('/ingest/records', {
      method: 'POST',
      headers: { authorization: `Bearer ${ingestKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(batch),
    });

  /** Each logged stream whose id starts with `prefix`, with how many events it holds. */
  const logged = async (prefix: string) => {
    const rows: { stream_id: string; n: number | string }[] = await api.app
      .get(TransactionRunner)
      .query(
        'SELECT stream_id, COUNT(*) AS n FROM events WHERE stream_id LIKE $1 GROUP BY stream_id',
        [`${prefix}%`],
      );
    return rows.map((row) => [row.stream_id, Number(row.n)]).sort();
  };

  const loggedOnce = (companies: CompanyRecord[]) =>
    companies.map((company) => [`company-${company.slug}`, 1]).sort();

  beforeAll(async () => {
    const plansFile = join(plansDirectory, 'plans.json');
    writeFileSync(plansFile, JSON.stringify(PLANS));
    cluster = await RedisCluster.start();
    environment = testEnvironment({
      REDIS_CLUSTER_NODES: cluster.nodes,
      PLANS_FILE: plansFile,
      // Only a revocation announcement can take a key out of another process's cache.
      API_KEY_CACHE_SECONDS: '3600',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    });
    api = await startTestApp(environment.config());
    readKey = await api.createKey(['read']);
    await ingestAndProject(api, [
      records.company('cluster.io', { name: 'Cluster' }),
      records.page('cluster.io'),
      records.scrape('cluster.io', '', VERSION),
    ]);
  });

  afterAll(async () => {
    await api?.close();
    await environment?.cleanup();
    await cluster?.stop();
    rmSync(plansDirectory, { recursive: true, force: true });
  });

  it('runs ingestion end to end: accepted, queued, logged once, projected and served', async () => {
    // The queues are on the cluster, and none of their keys on the machine's own Redis.
    const queueKeys = `${environment.env.QUEUE_PREFIX}*`;
    const onCluster = createRedisConnection(api.config.redis, 'test-cluster-keys');
    const onLocalRedis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    try {
      expect((await keysMatching(onCluster, queueKeys)).length).toBeGreaterThan(0);
      expect(await keysMatching(onLocalRedis, queueKeys)).toEqual([]);
    } finally {
      onCluster.disconnect();
      onLocalRedis.disconnect();
    }
    const [{ n }] = await api.app
      .get(TransactionRunner)
      .query('SELECT COUNT(*) AS n FROM events WHERE stream_id = $1', ['company-cluster.io']);
    expect(Number(n)).toBe(1);
    const company = await getJson<{ name: string }>(api, '/api/companies/cluster.io', readKey);
    expect([company.status, company.body.name]).toEqual([200, 'Cluster']);
  });

  it('meters exactly: 60 concurrent requests of a 30-an-hour key get 30 x 200 and 30 x 429', async () => {
    const key = await api.createKey(['read'], 'thirty');
    await expectThirtyOfSixtyServed(api, key, `/api/files/cluster.io/version/${VERSION}`);
  });

  it('delivers a webhook for an extraction recorded after its registration', async () => {
    const receiver = new Receiver(0);
    try {
      const base = await receiver.start();
      const { data } = await api
        .client(readKey)
        .POST('/v1/api/webhooks', { body: { url: `${base}/hook` } });
      await ingestAndProject(api, [
        records.scrape('cluster.io', '', '20251101'),
        records.pricing('cluster.io', '', '20251101', 30),
      ]);
      const [delivery] = await waitFor('the delivery', async () => {
        const taken = receiver.taken('/hook');
        return taken.length > 0 ? taken : undefined;
      });
      expect(JSON.parse(delivery!.body)).toMatchObject({
        type: 'pricing.changes',
        webhook_id: data!.id,
        changes: [{ slug: 'cluster', to_version: '20251101' }],
      });
    } finally {
      await receiver.close();
    }
  });

  it('tells another API process of a revoked key (pub/sub)', async () => {
    const second = await startTestApp(environment.config(), { withWorker: false });
    try {
      const created = await admin('POST', '/admin/keys', {
        name: 'cluster-revoked',
        plan: 'enterprise',
        scopes: ['read'],
      });
      const { id, key } = (await created.json()) as { id: string; key: string };
      const onSecond = () => getJson(second, '/api/companies/cluster.io', key);
      expect((await onSecond()).status).toBe(200);
      expect((await admin('DELETE', `/admin/keys/${id}`)).status).toBe(204);
      await waitFor(
        'the second process to refuse the revoked key',
        async () => ((await onSecond()).status === 401 ? true : undefined),
        10_000,
      );
    } finally {
      await second.close();
    }
  });

  it('counts the queues alike in the dashboard, /health/ready and the CLI', async () => {
    // The five records of the tests above, each a job.
    const dashboard = await fetch(`${api.baseUrl}/admin/queues/api/queues`, {
      headers: { authorization: `Bearer ${environment.env.ADMIN_TOKEN}` },
    });
    expect(dashboard.status).toBe(200);
    const { queues } = (await dashboard.json()) as {
      queues: { name: string; counts: Record<string, number> }[];
    };
    expect(queues.find((queue) => queue.name === 'ingest')?.counts.completed).toBe(5);

    const ready = await fetch(`${new URL(api.baseUrl).origin}/health/ready`);
    const readiness = (await ready.json()) as {
      info: Record<string, { status: string; ingest?: { completed: number } }>;
    };
    expect([ready.status, readiness.info.redis?.status]).toEqual([200, 'up']);
    expect(readiness.info.queues?.ingest?.completed).toBe(5);

    // A process of its own, configured by the environment alone.
    const stats = await runCli(environment.env, ['queue:stats', '--json']);
    expect(stats.code, stats.stderr).toBe(0);
    expect(JSON.parse(stats.stdout)).toMatchObject({ ingest: { completed: 5, failed: 0 } });
  });

  // Before the failover below: the replica stalled here has never been a master, which a client's
  // slot map (refreshed only on a redirection) could still send a metering command to.
  it("answers no 202 before a replica holds the batch's jobs", async () => {
    const ingestKey = await api.createKey(['ingest']);
    const { replicaWaitMs } = api.config.ingest;
    const retryAfter = Math.ceil(replicaWaitMs / 1000);
    const batch = Array.from({ length: 3 }, (_, index) => records.company(`stalled-${index}.io`));
    // Two waits long: the first sending times out while the replica sleeps.
    const { woke } = await cluster.stallReplica(
      environment.env.QUEUE_PREFIX!,
      (2 * replicaWaitMs) / 1000,
    );

    const sentAt = Date.now();
    const refused = await postRecords(ingestKey, batch);
    const refusedAt = Date.now();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe(String(retryAfter));
    // The route's general error shape: the category, not a code.
    expect(await refused.json()).toMatchObject({
      error: 'Service Unavailable',
      retry_after: retryAfter,
    });
    // It waited out WAIT's timeout (less Redis's rounding of its clock) before refusing.
    expect(refusedAt - sentAt).toBeGreaterThanOrEqual(replicaWaitMs - 100);
    // Its jobs were queued on the master all the same, and the worker applies them.
    await waitFor('the refused batch to be applied', async () =>
      (await logged('company-stalled-')).length === batch.length ? true : undefined,
    );

    // The client sends the batch again until it is accepted.
    const answers: { status: number; at: number }[] = [];
    const accepted = await waitFor('the batch sent again to be accepted', async () => {
      const response = await postRecords(ingestKey, batch);
      answers.push({ status: response.status, at: Date.now() });
      return response.status === 202
        ? ((await response.json()) as { batch_id: string })
        : undefined;
    });
    const wokeAt = await woke;
    // Refused while the replica slept; accepted only once it could acknowledge the jobs.
    expect(answers.slice(0, -1).filter(({ status }) => status !== 503)).toEqual([]);
    expect(answers.at(-1)!.at).toBeGreaterThanOrEqual(wokeAt);

    const status = await api.settled(accepted.batch_id);
    // Applied once, by the refused sending: the accepted one finds every record in the log.
    expect(status.counts).toMatchObject({ done: 0, duplicate: batch.length, failed: 0 });
    expect(await logged('company-stalled-')).toEqual(loggedOnce(batch));
  });

  it("loses no accepted record when the queues' master fails over during ingestion", async () => {
    const ingestKey = await api.createKey(['ingest']);
    const accepted: { batchId: string; batch: CompanyRecord[] }[] = [];
    let sent = 0;
    const post = async () => {
      sent += 1;
      const batch = Array.from({ length: 5 }, (_, index) =>
        records.company(`failover-${sent}-${index}.io`),
      );
      const response = await postRecords(ingestKey, batch);
      // A refusal (503) is the client's to send again; only an accepted batch must arrive.
      if (response.status === 202) {
        accepted.push({
          batchId: ((await response.json()) as { batch_id: string }).batch_id,
          batch,
        });
      } else expect(response.status).toBe(503);
    };
    // Batches go in before, while and after the master of the queues' slot hands over.
    for (let batch = 0; batch < 4; batch += 1) await post();
    const sentBefore = sent;
    const acceptedBefore = accepted.length;
    let failingOver = true;
    const failover = cluster
      .failover(environment.env.QUEUE_PREFIX!)
      .finally(() => (failingOver = false));
    const sender = async () => {
      while (failingOver) await post();
    };
    await Promise.all([failover, sender(), sender()]);
    // Batches went in while the master handed over, not only before and after.
    expect(sent).toBeGreaterThan(sentBefore);
    expect(accepted.length).toBeGreaterThan(acceptedBefore);
    for (let batch = 0; batch < 4; batch += 1) await post();

    expect(accepted.length).toBeGreaterThanOrEqual(8);

    for (const { batchId, batch } of accepted) {
      const status = await api.settled(batchId, 60_000);
      expect(status.counts).toMatchObject({ done: batch.length, failed: 0 });
    }
    const companies = accepted.flatMap(({ batch }) => batch);
    // Every accepted record once; a refused sending's jobs may have been queued, and applied
    // once, too.
    const inLog = await logged('company-failover-');
    expect(inLog.filter(([, events]) => events !== 1)).toEqual([]);
    expect(inLog).toEqual(expect.arrayContaining(loggedOnce(companies)));
    await api.app.get(ProjectionRunner).catchUp(undefined, { wait: true });
    for (const { slug } of companies) {
      await waitFor(`${slug} to be served`, async () =>
        (await getJson(api, `/api/companies/${slug}`, readKey)).status === 200 ? true : undefined,
      );
    }
  });

  it('loses no acknowledged record when the master is killed right after a 202', async () => {
    const ingestKey = await api.createKey(['ingest']);
    const sent: CompanyRecord[] = [];
    for (let round = 0; round < 3; round += 1) {
      const batch = Array.from({ length: 5 }, (_, index) =>
        records.company(`killed-${round}-${index}.io`),
      );
      const response = await postRecords(ingestKey, batch);
      expect(response.status).toBe(202);
      const { batch_id: batchId } = (await response.json()) as { batch_id: string };
      await cluster.killMaster(environment.env.QUEUE_PREFIX!);
      sent.push(...batch);

      const status = await api.settled(batchId, 60_000);
      expect(status.counts).toMatchObject({ done: batch.length, duplicate: 0, failed: 0 });
      // Back as the new master's replica: the next round's master has one to fail over to.
      await cluster.restartKilled();
    }
    expect(await logged('company-killed-')).toEqual(loggedOnce(sent));
  });
});
