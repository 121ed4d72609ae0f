import { afterAll, describe, expect, it } from 'vitest';
import { getJson, ingestAndProject } from './support/catalogue-fixture.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/*
 * A database reset (a restored backup, `rm -rf data`, a new PostgreSQL schema) while Redis,
 * with its finished jobs, stays: the event log decides what is a duplicate, not the queue's
 * memory of job ids.
 */

const before = testEnvironment();
// The same Redis namespace (queues, batch manifests, counters) over a new, empty database.
const after = testEnvironment({ QUEUE_PREFIX: before.env.QUEUE_PREFIX! });
let running: TestApp | null = null;

afterAll(async () => {
  await running?.close();
  await after.cleanup();
  await before.cleanup();
});

const catalogue = [
  records.company('reset.io', { name: 'Reset' }),
  records.page('reset.io'),
  records.scrape('reset.io', '', '20250105'),
  records.pricing('reset.io', '', '20250105'),
];

describe('records sent again after the database was reset', () => {
  it('are applied to the new database, not reported as duplicates of the old one', async () => {
    running = await startTestApp(before.config());
    await ingestAndProject(running, catalogue);
    await running.close();

    running = await startTestApp(after.config());
    const status = await running.settled(await running.ingest(catalogue));
    expect(status.counts).toMatchObject({ done: 4, duplicate: 0, failed: 0, unknown: 0 });
    await ingestAndProject(running, catalogue);
    const key = await running.createKey(['read']);
    const pricing = await getJson<{ version: string }>(running, '/api/pricing/reset.io', key);
    expect(pricing.status).toBe(200);
    expect(pricing.body.version).toBe('20250105');

    // Now the log holds them: the same batch again is four duplicates, and nothing changes.
    const again = await running.settled(await running.ingest(catalogue));
    expect(again.counts).toMatchObject({ done: 0, duplicate: 4, failed: 0 });
  });
});
