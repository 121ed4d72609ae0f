import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { errorCodes } from 'fastify';
import {
  CheckedRecordSeal,
  INGEST_CHUNK_JOB,
  IngestQueue,
  ingestChunkJobId,
  ingestJobId,
  type IngestChunkJobData,
  type IngestJobData,
  type IngestRecord,
} from '#app/contracts';
import { TransactionRunner } from '#app/persistence';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';
import { waitFor } from './support/wait-for.js';

const environment = testEnvironment({ INGEST_ATTEMPTS: '4', INGEST_BACKOFF_MS: '100' });
let api: TestApp;

async function count(table: string, where = '1 = 1'): Promise<number> {
  const [row] = await api.app
    .get(TransactionRunner)
    .query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`);
  return Number(row?.n);
}

async function eventsOfStream(streamId: string) {
  return api.app
    .get(TransactionRunner)
    .query<{ type: string; payload: string }>(
      'SELECT type, payload FROM events WHERE stream_id = $1 ORDER BY stream_version',
      [streamId],
    );
}

/** Waits until the read models have caught up with the log (the projector runs in-process). */
async function projected(table: string, where: string, expected: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  while ((await count(table, where)) !== expected) {
    if (Date.now() > deadline) throw new Error(`${table} where ${where} never reached ${expected}`);
    await new Promise((next) => setTimeout(next, 50));
  }
}

beforeAll(async () => {
  api = await startTestApp(environment.config());
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

describe('a record travels from POST /v1/ingest/records to the read models', () => {
  it('appends one event per record and projects companies, pages, scrape files and pricing', async () => {
    const batch = await api.ingest([
      records.company('acme.io'),
      records.page('acme.io'),
      records.page('acme.io', 'enterprise'),
      records.scrape('acme.io', '', '20250105'),
      records.pricing('acme.io', '', '20250105'),
    ]);
    const status = await api.settled(batch);
    expect(status.counts).toMatchObject({ done: 5, failed: 0, duplicate: 0 });
    await projected('pricing_snapshots', "company_slug = 'acme.io'", 1);
    expect(await count('events')).toBeGreaterThanOrEqual(5);
    expect(await count('companies', "slug = 'acme.io'")).toBe(1);
    expect(await count('pricing_pages', "composite_slug IN ('acme', 'acme.enterprise')")).toBe(2);
    await projected('scrape_files', "company_slug = 'acme.io' AND version = '20250105'", 1);
  });

  it('treats the same record sent again as a no-op, reported as duplicate', async () => {
    const first = await api.ingest([records.company('dup.io')]);
    await api.settled(first);
    const before = await count('events');
    const again = await api.ingest([records.company('dup.io')]);
    const status = await api.settled(again);
    expect(status.counts).toMatchObject({ duplicate: 1, done: 0, failed: 0 });
    expect(await count('events')).toBe(before);
  });

  it('refuses other content under a known natural key, naming both, and keeps the first', async () => {
    const setup = await api.ingest([
      records.company('immutable.io'),
      records.page('immutable.io'),
      records.scrape('immutable.io', '', '20250201', { score: 3 }),
    ]);
    await api.settled(setup);
    const changed = await api.ingest([
      records.scrape('immutable.io', '', '20250201', { score: 9 }),
    ]);
    const status = await api.settled(changed);
    expect(status.counts.failed).toBe(1);
    const reason = status.failures[0]?.reason ?? '';
    expect(reason).toContain('immutable.io//20250201/scraper_1');
    expect(reason).toMatch(/already recorded with other content \(sha256 [0-9a-f]{16}/);
    expect(reason).toMatch(/this record has sha256 [0-9a-f]{16}/);
    await projected('scrape_files', "company_slug = 'immutable.io'", 1);
    expect(await count('scrape_files', "company_slug = 'immutable.io' AND score = 3")).toBe(1);
    expect(await eventsOfStream('scrape-immutable.io//20250201/scraper_1')).toHaveLength(1);
  });

  it('records a changed company profile as a new event and updates the read model', async () => {
    const first = await api.ingest([records.company('grow.io', { employees: '11-50' })]);
    await api.settled(first);
    const second = await api.ingest([
      records.company('grow.io', { employees: '51-200', name: 'Grow' }),
    ]);
    expect((await api.settled(second)).counts.done).toBe(1);
    const events = await eventsOfStream('company-grow.io');
    expect(events.map((event) => event.type)).toEqual([
      'company.registered.v1',
      'company.profile-changed.v1',
    ]);
    await projected('companies', "slug = 'grow.io' AND employees = '51-200' AND name = 'Grow'", 1);
  });

  it('follows a profile that changes back (A, B, A), each sending judged by the log', async () => {
    for (const name of ['Swing', 'Swung', 'Swing']) {
      const batch = await api.ingest([records.company('swing.io', { name })]);
      expect((await api.settled(batch)).counts).toMatchObject({ done: 1, duplicate: 0 });
    }
    expect((await eventsOfStream('company-swing.io')).map((event) => event.type)).toEqual([
      'company.registered.v1',
      'company.profile-changed.v1',
      'company.profile-changed.v1',
    ]);
    await projected('companies', "slug = 'swing.io' AND name = 'Swing'", 1);
  });

  it('keeps a scrape whose page is not known yet waiting, without holding its chunk, and applies it once the page arrives', async () => {
    const early = await api.ingest([
      records.scrape('late.io', '', '20250301'),
      records.company('not-late.io'),
    ]);
    const client = api.client(await api.createKey(['ingest']));
    // The company of the same chunk is done while the scrape waits.
    const waiting = await waitFor('the company to be done', async () => {
      const { data } = await client.GET('/v1/ingest/batches/{batchId}', {
        params: { path: { batchId: early } },
      });
      return data?.counts.done === 1 ? data : undefined;
    });
    expect(waiting.complete).toBe(false);
    expect(waiting.counts).toMatchObject({ done: 1, failed: 0 });
    expect(waiting.counts.waiting + waiting.counts.active).toBe(1);
    const parents = await api.ingest([records.company('late.io'), records.page('late.io')]);
    await api.settled(parents);
    expect((await api.settled(early)).counts).toMatchObject({ done: 2, failed: 0 });
    await projected('scrape_files', "company_slug = 'late.io'", 1);
  });

  it('fails a record whose company never arrives, with a clear reason, after the retries', async () => {
    const orphan = await api.ingest([records.page('never.io')]);
    const status = await api.settled(orphan, 30_000);
    expect(status.counts.failed).toBe(1);
    expect(status.failures[0]?.reason).toBe(
      'company never.io is not known yet; gave up after 4 attempts',
    );
  });

  it('applies a failed record when it is sent again after its dependency arrived', async () => {
    const orphan = await api.ingest([records.page('second-chance.io')]);
    expect((await api.settled(orphan, 30_000)).counts.failed).toBe(1);
    await api.settled(await api.ingest([records.company('second-chance.io')]));
    const resent = await api.ingest([records.page('second-chance.io')]);
    expect((await api.settled(resent, 30_000)).counts.failed).toBe(0);
    await projected('pricing_pages', "company_slug = 'second-chance.io'", 1);
  });

  it('refuses a page whose composite slug another company already uses', async () => {
    const first = await api.ingest([records.company('twin.io'), records.page('twin.io')]);
    await api.settled(first);
    const clash = await api.ingest([records.company('twin.com'), records.page('twin.com')]);
    const status = await api.settled(clash);
    expect(status.counts).toMatchObject({ done: 1, failed: 1 });
    expect(status.failures[0]?.reason).toContain(
      'composite slug twin of page twin.com/ is already used by page twin.io/',
    );
  });

  it('accepts NDJSON', async () => {
    const key = await api.createKey(['ingest']);
    const body = [records.company('ndjson.io'), records.page('ndjson.io')]
      .map((record) => JSON.stringify(record))
      .join('\n');
    const response = await api.request('/ingest/records', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson' },
      body,
    });
    expect(response.status).toBe(202);
    const accepted = (await response.json()) as {
      batch_id: string;
      accepted: number;
      jobs: number;
    };
    expect(accepted).toMatchObject({ accepted: 2, jobs: 1 });
    expect((await api.settled(accepted.batch_id)).counts.done).toBe(2);
  });

  it('queues a job per chunk of INGEST_CHUNK_SIZE records, named by batch, index and content', async () => {
    const { chunkSize } = api.config.ingest;
    const batch = Array.from({ length: chunkSize + chunkSize / 2 }, (_, index) =>
      records.company(`chunked-${index}.io`),
    );
    const response = await api.request('/ingest/records', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await api.createKey(['ingest'])}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(batch),
    });
    expect(response.status).toBe(202);
    const accepted = (await response.json()) as { batch_id: string; jobs: number };
    expect(accepted).toMatchObject({ accepted: batch.length, jobs: 2 });
    const { queue } = api.app.get(IngestQueue);
    const chunks = [batch.slice(0, chunkSize), batch.slice(chunkSize)];
    for (const [index, chunk] of chunks.entries()) {
      const job = await queue.getJob(ingestChunkJobId(chunk, accepted.batch_id, index));
      expect(job?.name).toBe(INGEST_CHUNK_JOB);
      expect(job?.data).toMatchObject({
        records: chunk,
        chunkIndex: index,
        firstIndex: chunkSize * index,
      });
    }
    const status = await api.settled(accepted.batch_id);
    expect(status.counts).toMatchObject({ done: batch.length, waiting: 0, active: 0, failed: 0 });
    expect(await count('events', "stream_id LIKE 'company-chunked-%'")).toBe(batch.length);
  });

  it('fails a refused record alone: the rest of its chunk is applied', async () => {
    const scrape = records.scrape('alone.io', '', '20250101');
    await api.settled(
      await api.ingest([records.company('alone.io'), records.page('alone.io'), scrape]),
    );
    const status = await api.settled(
      await api.ingest([
        records.company('alone-a.io'),
        { ...scrape, score: 1 },
        records.company('alone-b.io'),
      ]),
    );
    expect(status.counts).toMatchObject({ done: 2, failed: 1 });
    expect(status.failures).toEqual([
      expect.objectContaining({
        index: 1,
        type: 'scrape',
        reason: expect.stringMatching(/other content/),
      }),
    ]);
    expect(await count('events', "stream_id IN ('company-alone-a.io', 'company-alone-b.io')")).toBe(
      2,
    );
  });
});

describe('which queued jobs the worker checks again', () => {
  /** The reason a job failed for, once it has. */
  async function failedReason(queue: Queue<IngestJobData>, jobId: string): Promise<string> {
    return waitFor(`job ${jobId} to fail`, async () => {
      const job = await queue.getJob(jobId);
      return (await job?.isFailed()) ? job?.failedReason : undefined;
    });
  }

  it("finds the API's mark on the jobs it queued, and the mark holds only for its own job", async () => {
    const { queue } = api.app.get(IngestQueue);
    const seal = api.app.get(CheckedRecordSeal);
    const record = records.company('seal-holds.io');
    const batchId = await api.ingest([record]);
    const job = await queue.getJob(ingestChunkJobId([record], batchId, 0));
    expect(job?.data.checked).toEqual(expect.any(String));
    expect(seal.holds(job?.id, job!.data)).toBe(true);
    expect(seal.holds(ingestChunkJobId([record], randomUUID(), 0), job!.data)).toBe(false);
    expect(seal.holds(ingestChunkJobId([record], batchId, 1), job!.data)).toBe(false);
  });

  it('checks a job a pipeline added, and a record changed under the mark the API gave another', async () => {
    const { queue } = api.app.get(IngestQueue);
    const seal = api.app.get(CheckedRecordSeal);
    const sending = randomUUID();
    const unchecked = records.company('Not A Slug');
    const uncheckedId = ingestJobId(unchecked, sending);
    await queue.add(
      'company',
      { record: unchecked, batchId: null, requestId: null },
      { jobId: uncheckedId },
    );
    // The genuine mark of a valid record's job, copied onto a job of the same id whose record
    // is no longer that one.
    const genuine = records.company('marked.io');
    const markedId = ingestJobId(genuine, sending);
    const changed = { ...genuine, category: 'Gardening' } as unknown as IngestRecord;
    await queue.add(
      'company',
      { record: changed, batchId: sending, requestId: null, checked: seal.seal(markedId) },
      { jobId: markedId },
    );
    expect(await failedReason(queue, uncheckedId)).toMatch(/^invalid record: .*slug/);
    expect(await failedReason(queue, markedId)).toMatch(/^invalid record: .*category/);
    expect(await count('events', "stream_id IN ('company-Not A Slug', 'company-marked.io')")).toBe(
      0,
    );
  });

  it('refuses a malformed job without retry, naming the shape it expects', async () => {
    const { queue } = api.app.get(IngestQueue);
    const malformed = [
      { records: 'not a list', batchId: null, requestId: null, chunkIndex: 0, firstIndex: 0 },
      { records: [], batchId: null, requestId: null, chunkIndex: -1, firstIndex: 0 },
      { batchId: null, requestId: null },
    ];
    for (const [index, data] of malformed.entries()) {
      const jobId = `malformed-${index}-${randomUUID()}`;
      await queue.add(INGEST_CHUNK_JOB, data as unknown as IngestJobData, { jobId });
      expect(await failedReason(queue, jobId)).toMatch(/^malformed job: /);
      expect((await queue.getJob(jobId))?.attemptsMade).toBe(1);
    }
  });

  it("checks each record of a pipeline's chunk: an invalid one fails alone, the others are applied", async () => {
    const { queue } = api.app.get(IngestQueue);
    const chunk = [
      records.company('pipeline-a.io'),
      records.company('Not A Slug Either'),
      records.company('pipeline-b.io'),
    ];
    const jobId = ingestChunkJobId(chunk, randomUUID(), 0);
    const data: IngestChunkJobData = {
      records: chunk,
      batchId: null,
      requestId: null,
      chunkIndex: 0,
      firstIndex: 0,
    };
    await queue.add(INGEST_CHUNK_JOB, data, { jobId });
    expect(await failedReason(queue, jobId)).toMatch(
      /^1 of 3 records not applied: #1: invalid record: .*slug/,
    );
    expect(
      await count('events', "stream_id IN ('company-pipeline-a.io', 'company-pipeline-b.io')"),
    ).toBe(2);
  });
});

describe('a bad batch is refused whole', () => {
  it('answers 400 with the index and reasons of every bad record, and queues nothing', async () => {
    const key = await api.createKey(['ingest']);
    const queue = (await import('#app/contracts')).IngestQueue;
    const jobsBefore = await api.app.get(queue).queue.count();
    const response = await api.request('/ingest/records', {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify([
        records.company('fine.io'),
        records.company('Not A Slug', { category: 'Gardening' }),
        records.scrape('fine.io', '', '20250231'),
        { type: 'mystery' },
      ]),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as {
      error: string;
      message: string;
      details: { invalid: { index: number; reasons: string[] }[] };
    };
    expect(body.error).toBe('Bad Request');
    expect(body.details.invalid.map((bad) => bad.index)).toEqual([1, 2, 3]);
    expect(body.details.invalid[0]?.reasons.join(' ')).toMatch(/slug.*category/s);
    expect(body.details.invalid[1]?.reasons).toContain('version must be a real calendar date');
    expect(await api.app.get(queue).queue.count()).toBe(jobsBefore);
    expect(await count('events', "stream_id = 'company-fine.io'")).toBe(0);
  });

  it('answers 400 for a body that is not JSON, as for any JSON body, and checks the key first', async () => {
    const key = await api.createKey(['ingest']);
    const send = (headers: Record<string, string>, body: string) =>
      api.request('/ingest/records', { method: 'POST', headers, body });
    const json = { 'x-api-key': key, 'content-type': 'application/json' };
    const answers = [
      await send(json, '[{"type":'),
      await send(json, '[{"type":"company","__proto__":{"polluted":true}}]'),
      await send(json, ''),
      await send({ ...json, 'content-type': 'application/x-ndjson' }, '{}\n\n{"type":\n'),
      await send({ ...json, 'x-api-key': 'pi_not_a_key' }, '[{"type":'),
    ];
    const bodies = await Promise.all(
      answers.map(async (answer) => ({
        status: answer.status,
        ...((await answer.json()) as Record<string, unknown>),
      })),
    );
    // Fastify's own words, as for any other route's JSON body.
    const invalid = new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY().message;
    const empty = new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY().message;
    expect(bodies).toMatchObject([
      { status: 400, message: invalid },
      { status: 400, message: invalid },
      { status: 400, message: empty },
      { status: 400, message: 'Line 3 is not valid JSON', details: { line: 3 } },
      { status: 401 },
    ]);
  });

  it('answers 400 for records of lists far past their bounds, in a few reasons each', async () => {
    const key = await api.createKey(['ingest']);
    const base = records.pricing('fine.io', '', '20250105');
    const [plan] = base.plans;
    const emptyCharges = (count: number) => Array.from({ length: count }, () => ({}));
    // 200,000 empty charges (600 KB): checked one by one, they took the checking thread's whole
    // heap (a 500); 100 plans of 100 empty charges gave 70,000 reasons.
    const far = { ...base, plans: [{ ...plan, charges: emptyCharges(200_000) }] };
    const within = {
      ...base,
      version: '20250106',
      plans: Array.from({ length: 100 }, () => ({ ...plan, charges: emptyCharges(100) })),
    };
    const response = await api.request('/ingest/records', {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify([far, within]),
    });
    expect(response.status).toBe(400);
    const { details } = (await response.json()) as {
      details: { invalid: { index: number; reasons: string[] }[] };
    };
    expect(details.invalid[0]).toMatchObject({
      index: 0,
      reasons: ['plans.0.charges must contain no more than 100 elements'],
    });
    expect(details.invalid[1]?.reasons).toHaveLength(20);
    expect(details.invalid[1]?.reasons.at(-1)).toMatch(/^and \d+ more problems$/);
  });

  it('answers 413 past 1,000 records and past 5 MB', async () => {
    const key = await api.createKey(['ingest']);
    const tooMany = await api.request('/ingest/records', {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(Array.from({ length: 1001 }, (_, i) => records.company(`c${i}.io`))),
    });
    expect(tooMany.status).toBe(413);
    const tooBig = await api.request('/ingest/records', {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify([records.company('big.io', { name: 'x'.repeat(6 * 1024 * 1024) })]),
    });
    expect(tooBig.status).toBe(413);
    expect(((await tooBig.json()) as { error: string }).error).toBeTypeOf('string');
  });
});

describe('ingest endpoints need a key with the ingest scope', () => {
  const post = (headers: Record<string, string>) =>
    api.request('/ingest/records', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify([records.company('auth.io')]),
    });

  it('401 for a missing, malformed, unknown, revoked or expired key', async () => {
    const keys = (await import('#app/access')).ApiKeysService;
    const service = api.app.get(keys);
    const revoked = await service.create({ name: 'r', plan: 'free', scopes: ['ingest'] });
    await service.revoke(revoked.id);
    const expiring = await service.create({
      name: 'e',
      plan: 'free',
      scopes: ['ingest'],
      expiresAt: new Date(Date.now() + 500).toISOString(),
    });
    await new Promise((next) => setTimeout(next, 600));
    const cases: Record<string, Record<string, string>> = {
      missing: {},
      malformed: { authorization: 'Bearer not-a-key' },
      unknown: { authorization: `Bearer pi_${'A'.repeat(43)}` },
      revoked: { authorization: `Bearer ${revoked.key}` },
      expired: { 'x-api-key': expiring.key },
    };
    for (const [name, headers] of Object.entries(cases)) {
      const response = await post(headers);
      expect(response.status, name).toBe(401);
      const body = (await response.json()) as { error: string; message: string };
      expect(body.error, name).toBe('Unauthorized');
      expect(body.message, name).toMatch(
        name === 'missing' ? /required/ : new RegExp(name === 'unknown' ? 'not valid' : name),
      );
    }
  });

  it('403 for a valid key without the ingest scope', async () => {
    const readKey = await api.createKey(['read']);
    const response = await post({ authorization: `Bearer ${readKey}` });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({
      error: 'Forbidden',
      details: { required_scope: 'ingest' },
    });
  });

  it('echoes X-Request-Id and generates one when absent', async () => {
    const given = await api.request('/ingest/batches/x', {
      headers: { 'x-request-id': 'trace-123' },
    });
    expect(given.headers.get('x-request-id')).toBe('trace-123');
    const generated = await api.request('/ingest/batches/x');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
