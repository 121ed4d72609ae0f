import { loadConfig } from '#app/config';
import { streamIds } from '#app/domain';
import { buildDataSourceOptions, TransactionRunner } from '#app/persistence';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiReady,
  showOutputOnFailure,
  startApiProcess,
  stopApiProcess,
  type ApiProcess,
} from './support/api-process.js';
import { pastBurstLimit } from './support/past-burst-limit.js';
import { records } from './support/records.js';
import type { BatchStatusBody } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';
import { waitFor } from './support/wait-for.js';
import { startWorkerProcess, workerReady } from './support/worker-process.js';

/**
 * A record whose job failed for good, sent again by many requests at once across two API
 * processes once the cause is fixed: every request is accepted (202, never a 500 from two of
 * them reviving the same failed job), and the record is applied exactly once. Each sending is
 * a job of its own batch; the event log, not the queue, tells which one applies it.
 */

const RESENDS = 24;

// A page whose company is not known fails for good after two quick attempts.
const environment = testEnvironment({ INGEST_ATTEMPTS: '2', INGEST_BACKOFF_MS: '50' });
const adminToken = environment.env.ADMIN_TOKEN!;
const processes: ApiProcess[] = [];
let apis: ApiProcess[];
let ingestKey: string;

beforeAll(async () => {
  // A migrates the schema alone before B and the worker start (see metering-processes.test.ts).
  const a = await startApiProcess('api A', environment.env);
  processes.push(a);
  await apiReady(a);
  const b = await startApiProcess('api B', environment.env);
  processes.push(b);
  const worker = await startWorkerProcess('worker', environment.env);
  processes.push(worker);
  await Promise.all([apiReady(b), workerReady(worker)]);
  apis = [a, b];
  const created = await fetch(`${a.baseUrl}/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'pipeline', plan: 'enterprise', scopes: ['ingest'] }),
  });
  expect(created.status).toBe(201);
  ingestKey = ((await created.json()) as { key: string }).key;
}, 180_000);

afterAll(async () => {
  await Promise.all(processes.map(stopApiProcess));
  await environment.cleanup();
}, 60_000);

/** Posts a batch to one of the processes; a burst refusal is waited out as a client would. */
async function post(api: ApiProcess, batch: unknown[]): Promise<Response> {
  return pastBurstLimit(() =>
    fetch(`${api.baseUrl}/ingest/records`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ingestKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(batch),
    }),
  );
}

async function accepted(api: ApiProcess, batch: unknown[]): Promise<string> {
  const response = await post(api, batch);
  expect(response.status).toBe(202);
  return ((await response.json()) as { batch_id: string }).batch_id;
}

async function settled(batchId: string): Promise<BatchStatusBody> {
  return waitFor(
    `batch ${batchId} to settle`,
    async () => {
      const response = await pastBurstLimit(() =>
        fetch(`${apis[0]!.baseUrl}/ingest/batches/${batchId}`, {
          headers: { authorization: `Bearer ${ingestKey}` },
        }),
      );
      const body = (await response.json()) as BatchStatusBody;
      return body.complete ? body : undefined;
    },
    60_000,
    100,
  );
}

/** The events of one stream, read from the database the processes share. */
async function eventsOf(streamId: string): Promise<{ type: string; metadata: string }[]> {
  const dataSource = await new DataSource(
    buildDataSourceOptions(loadConfig(environment.env).database),
  ).initialize();
  try {
    return await new TransactionRunner(dataSource).query<{ type: string; metadata: string }>(
      'SELECT type, metadata FROM events WHERE stream_id = $1 ORDER BY stream_version',
      [streamId],
    );
  } finally {
    await dataSource.destroy();
  }
}

describe('a failed record sent again by many requests at once, across two API processes', () => {
  it('is accepted by every request and applied exactly once', async () => {
    showOutputOnFailure(processes);
    const page = records.page('late.io');
    const first = await settled(await accepted(apis[0]!, [page]));
    expect(first.counts).toMatchObject({ failed: 1, done: 0 });
    expect(first.failures[0]?.reason).toBe(
      'company late.io is not known yet; gave up after 2 attempts',
    );
    // The cause is fixed: the company arrives.
    expect(
      (await settled(await accepted(apis[1]!, [records.company('late.io')]))).counts,
    ).toMatchObject({ done: 1 });

    const answers = await Promise.all(
      Array.from({ length: RESENDS }, (_, index) => post(apis[index % 2]!, [page])),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(RESENDS).fill(202));
    const batchIds = await Promise.all(
      answers.map(async (answer) => ((await answer.json()) as { batch_id: string }).batch_id),
    );
    expect(new Set(batchIds).size).toBe(RESENDS);

    const statuses = [];
    for (const batchId of batchIds) statuses.push(await settled(batchId));
    const total = { done: 0, duplicate: 0, failed: 0, unknown: 0 };
    for (const { counts } of statuses) {
      for (const state of Object.keys(total) as (keyof typeof total)[])
        total[state] += counts[state];
    }
    // One sending applied it; every other found it in the log.
    expect(total).toEqual({ done: 1, duplicate: RESENDS - 1, failed: 0, unknown: 0 });

    const events = await eventsOf(streamIds.page('late.io', ''));
    expect(events.map((event) => event.type)).toEqual(['pricing-page.registered.v1']);
    const appliedBy = statuses.find((status) => status.counts.done === 1)?.batch_id;
    expect(JSON.parse(events[0]!.metadata)).toMatchObject({ batch_id: appliedBy });
    // The first sending keeps its failure: a batch's status is about its own jobs.
    expect((await settled(first.batch_id)).counts).toMatchObject({ failed: 1, done: 0 });
  });
});
