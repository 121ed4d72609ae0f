import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfig } from '#app/config';
import {
  IngestQueue,
  ingestChunkJobId,
  recordsOfJob,
  WEBHOOK_QUEUE,
  type IngestRecord,
} from '#app/contracts';
import { recordContentHash } from '#app/domain';
import { Queue } from 'bullmq';
import { TransactionRunner } from '#app/persistence';
import { JOB_STATES, type JobState } from '#app/observability';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, said } from './support/cli-process.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';
import { waitFor } from './support/wait-for.js';

// The command-line tool beside a worker that processes what it queues (a file of its own, so
// that it runs beside test/cli.test.ts).
const environment = testEnvironment();
const cli = (args: string[], env: Record<string, string> = {}) =>
  runCli(environment.env, args, env);

afterAll(async () => {
  await environment.cleanup();
});

describe('the command-line tool with a worker running', () => {
  const PROJECTORS = ['companies', 'pages', 'scrape-files', 'pricing-snapshots'];
  let api: TestApp | null = null;
  let directory: string;

  /** Writes an NDJSON file: records as JSON, strings as they are. */
  function ndjson(name: string, lines: unknown[]): string {
    const path = join(directory, name);
    const text = lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line)));
    writeFileSync(path, `${text.join('\n')}\n`);
    return path;
  }

  const worker = () => api as TestApp;
  const ingestQueue = () => worker().app.get(IngestQueue).queue;

  /** The jobs `record` became, one per batch that sent it (its id ends with the batch id). */
  /** The jobs whose records include `record`. */
  async function jobsOf(record: IngestRecord) {
    const hash = recordContentHash(record);
    const jobs = await ingestQueue().getJobs([
      'completed',
      'failed',
      'waiting',
      'active',
      'delayed',
    ]);
    return jobs.filter((job) =>
      recordsOfJob(job.data).some((queued) => recordContentHash(queued) === hash),
    );
  }

  async function count(table: string, where = '1 = 1'): Promise<number> {
    const [row] = await worker()
      .app.get(TransactionRunner)
      .query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`);
    return Number(row?.n);
  }

  async function projected(table: string, where: string, expected: number): Promise<void> {
    await waitFor(`${table} where ${where} to hold ${expected} rows`, async () =>
      (await count(table, where)) === expected ? true : undefined,
    );
  }

  /** What queue:stats --json prints for the ingest queue, read from BullMQ directly. */
  async function expectedStats() {
    const stats = async (queue: Queue) => ({
      paused: await queue.isPaused(),
      ...((await queue.getJobCounts(...JOB_STATES)) as Record<JobState, number>),
    });
    const config = worker().app.get(AppConfig);
    const webhooks = new Queue(WEBHOOK_QUEUE, {
      connection: { url: config.redis.url },
      prefix: config.redis.queuePrefix,
    });
    try {
      return { ingest: await stats(ingestQueue()), webhooks: await stats(webhooks) };
    } finally {
      await webhooks.close();
    }
  }

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'pricing-cli-'));
    // The CLI only queues; this worker (same database, Redis prefix) processes the jobs.
    api = await startTestApp(environment.config(), { withWorker: true });
  });

  afterAll(async () => {
    await api?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('ingest queues a file through the batch acceptance, shows progress and sums up', async () => {
    const company = records.company('cli.io');
    const file = ndjson('catalogue.ndjson', [
      company,
      records.page('cli.io'),
      '',
      records.scrape('cli.io', '', '20250301'),
      records.pricing('cli.io', '', '20250301'),
    ]);
    const result = await cli(['ingest', file]);
    expect(result.code, said(result)).toBe(0);
    // Not a terminal: plain progress lines, no bar drawn with control characters.
    expect(result.stdout).toMatch(/^queued: 4\/4 records$/m);
    expect(result.stdout).toMatch(/^processed: 4\/4 records$/m);
    expect(result.stdout.includes('\u001b')).toBe(false);
    expect(result.stdout).toContain(`${file}: 4 records in 1 batch (1 job)`);
    expect(result.stdout).toMatch(/^done: 4, duplicate: 0, failed: 0, unknown: 0$/m);

    // The API's acceptance: a deterministic job id, the batch and request on the chunk's job.
    const [job] = await jobsOf(company);
    expect(job?.data.batchId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    expect(job?.id).toBe(ingestChunkJobId(recordsOfJob(job!.data), job!.data.batchId!, 0));
    expect(job?.data.requestId).toMatch(/^cli-/);

    await projected('companies', "slug = 'cli.io'", 1);
    await projected('pricing_pages', "company_slug = 'cli.io'", 1);
    await projected('scrape_files', "company_slug = 'cli.io' AND version = '20250301'", 1);
    await projected('pricing_snapshots', "company_slug = 'cli.io' AND version = '20250301'", 1);

    const again = await cli(['ingest', file]);
    expect(again.code, said(again)).toBe(0);
    expect(again.stdout).toMatch(/^done: 0, duplicate: 4, failed: 0, unknown: 0$/m);
  });

  it('ingest refuses a file with invalid lines, naming each line, and queues none of it', async () => {
    const valid = records.company('never-queued.io');
    const file = ndjson('invalid.ndjson', [
      valid,
      '{"type": "company", "slug": ',
      records.company('bad.io', { category: 'Gardening' }),
      records.scrape('bad.io', '', '20250230'),
    ]);
    const result = await cli(['ingest', file]);
    expect(result.code, said(result)).not.toBe(0);
    expect(result.code).not.toBeNull();
    expect(result.stderr).toMatch(/^line 2 \(batch 1, index 1\): not JSON/m);
    expect(result.stderr).toMatch(
      /^line 3 \(batch 1, index 2, company\): category must be one of/m,
    );
    expect(result.stderr).toMatch(/^line 4 \(batch 1, index 3, scrape\): .*real calendar date/m);
    expect(result.stderr).toContain(`3 of 4 records in ${file} are invalid; nothing was queued`);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(await jobsOf(valid)).toEqual([]);
  });

  it('ingest exits non-zero when a record fails, with the line and reason in the summary', async () => {
    const file = ndjson('orphan.ndjson', [records.page('late.io')]);
    const result = await cli(['ingest', file]);
    expect(result.code, said(result)).not.toBe(0);
    expect(result.code).not.toBeNull();
    expect(result.stdout).toMatch(/^done: 0, duplicate: 0, failed: 1, unknown: 0$/m);
    expect(result.stdout).toMatch(
      /^failed: line 1 \(batch 1, page\): company late\.io is not known yet; gave up after/m,
    );
    expect(result.stderr).toContain('1 of 1 records failed');
  });

  it("queue:stats prints every queue's jobs by state", async () => {
    const json = await cli(['queue:stats', '--json']);
    expect(json.code, said(json)).toBe(0);
    const stats = JSON.parse(json.stdout) as Awaited<ReturnType<typeof expectedStats>>;
    expect(stats).toEqual(await expectedStats());
    expect(stats.ingest.failed).toBe(1);
    expect(stats.ingest.completed).toBeGreaterThanOrEqual(2);

    const table = await cli(['queue:stats']);
    expect(table.code, said(table)).toBe(0);
    const row = Object.values(stats.ingest).join('\\s*│\\s*');
    expect(table.stdout).toMatch(new RegExp(`ingest\\s*│\\s*${row}\\s*│`));
  });

  it('queue:retry-failed retries a failed job, which completes once its company is known', async () => {
    const [pageJob] = await jobsOf(records.page('late.io'));
    expect(await pageJob!.getState()).toBe('failed');
    const company = await cli([
      'ingest',
      ndjson('late-company.ndjson', [records.company('late.io')]),
    ]);
    expect(company.code, said(company)).toBe(0);

    const retried = await cli(['queue:retry-failed', '--limit', '5']);
    expect(retried.code, said(retried)).toBe(0);
    expect(retried.stdout).toMatch(/retried 1 failed job of the ingest queue/);
    await waitFor('the retried page job to complete', async () =>
      (await pageJob!.getState()) === 'completed' ? true : undefined,
    );
    await projected('pricing_pages', "company_slug = 'late.io'", 1);

    const none = await cli(['queue:retry-failed']);
    expect(none.code, said(none)).toBe(0);
    expect(none.stdout).toMatch(/retried 0 failed jobs of the ingest queue/);
    expect((await expectedStats()).ingest.failed).toBe(0);

    const bad = await cli(['queue:retry-failed', '--limit', '0']);
    expect(bad.code, said(bad)).not.toBe(0);
    expect(bad.stderr).toMatch(/--limit/);
  });

  it("rebuild shows each projector's progress and replays the whole log", async () => {
    const events = await count('events');
    expect(events).toBeGreaterThan(0);
    // No worker projects meanwhile, so the rebuild replays every event (into every read model).
    await api?.close();
    api = null;
    const result = await cli(['rebuild']);
    expect(result.code, said(result)).toBe(0);
    for (const projector of PROJECTORS) {
      expect(result.stdout).toMatch(new RegExp(`^${projector}: ${events}/${events} events$`, 'm'));
    }
    expect(result.stdout.includes('\u001b')).toBe(false);
    expect(result.stdout).toMatch(
      new RegExp(`^rebuilt: ${events} events applied in \\d+ ms$`, 'm'),
    );
  });
});
