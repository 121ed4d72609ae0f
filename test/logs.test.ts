import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { showOutputOnFailure, stopApiProcess, type ApiProcess } from './support/api-process.js';
import { records } from './support/records.js';
import { OwnRedis } from './support/redis-server.js';
import { testEnvironment, type TestEnvironment } from './support/test-environment.js';
import { waitFor } from './support/wait-for.js';
import { startApiThenWorker, type WorkerProcess } from './support/worker-process.js';

/*
 * The logs of a real API process and a real worker process at LOG_LEVEL=log, after a workload
 * that touches every kind of request: structured JSON only, one line per request with its
 * chosen fields, one line per job, and no secret anywhere (API keys, wrong keys, the admin
 * token, the database and Redis passwords).
 */

const secret = (label: string) => `${label}${randomBytes(12).toString('hex')}`;
const REDIS_PASSWORD = secret('redispw');
const DATABASE_PASSWORD = secret('dbpw');
const WRONG_KEY = `pi_${randomBytes(24).toString('hex')}`;
const WRONG_ADMIN_TOKEN = secret('wrong-admin-token-');

let redis: OwnRedis;
let environment: TestEnvironment;
let api: ApiProcess;
let worker: WorkerProcess;

interface LogLine {
  level: number;
  time: string;
  service: string;
  pid: number;
  msg?: string;
  [field: string]: unknown;
}

/** What the test sent and what came back, to find each request's log line by its id. */
interface Sent {
  what: string;
  requestId: string;
  method: string;
  route: string;
  status: number;
  keyId: string | null;
}

const sent: Sent[] = [];
const secrets: Record<string, string> = {};
const batches: string[] = [];
let jobs = 0;
let conflictBatch = '';
let lines: { process: string; text: string }[] = [];

async function send(
  what: string,
  route: string,
  path: string,
  { keyId = null, ...init }: RequestInit & { keyId?: string | null } = {},
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${api.baseUrl}${path}`, init);
  const text = await response.text();
  const requestId = response.headers.get('x-request-id');
  expect(requestId, what).toBeTruthy();
  sent.push({
    what,
    requestId: requestId!,
    method: init.method ?? 'GET',
    route,
    status: response.status,
    keyId,
  });
  return { status: response.status, body: text === '' ? null : (JSON.parse(text) as unknown) };
}

async function createKey(
  adminToken: string,
  scopes: string[],
): Promise<{ id: string; key: string }> {
  const created = await send(`create ${scopes.join()} key`, '/v1/admin/keys', '/admin/keys', {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `logs-${scopes.join('-')}`, plan: 'enterprise', scopes }),
  });
  expect(created.status).toBe(201);
  return created.body as { id: string; key: string };
}

async function settle(batchId: string, ingest: { id: string; key: string }): Promise<void> {
  await waitFor(`batch ${batchId} to settle`, async () => {
    const status = await send(
      'batch status',
      '/v1/ingest/batches/:batchId',
      `/ingest/batches/${batchId}`,
      { headers: { 'x-api-key': ingest.key }, keyId: ingest.id },
    );
    return (status.body as { complete: boolean }).complete ? true : undefined;
  });
}

beforeAll(async () => {
  redis = await OwnRedis.create(REDIS_PASSWORD);
  await redis.start();
  const databaseUrl = process.env.TEST_DATABASE_URL;
  const postgres = databaseUrl?.startsWith('postgres') ?? false;
  const overrides: Record<string, string> = {
    REDIS_URL: redis.url,
    LOG_LEVEL: 'log',
    // This file counts log lines per job: a lock that lapsed on a loaded machine would run a job
    // again (a stall), and its second run would log again.
    INGEST_LOCK_MS: '30000',
  };
  if (postgres) {
    // The test server trusts local connections, so the password is carried but never checked.
    const url = new URL(databaseUrl!);
    url.password = DATABASE_PASSWORD;
    overrides.DATABASE_URL = url.toString();
    secrets['database password'] = DATABASE_PASSWORD;
  }
  environment = testEnvironment(overrides);
  secrets['redis password'] = REDIS_PASSWORD;
  secrets['admin token'] = environment.env.ADMIN_TOKEN!;
  secrets['wrong admin token'] = WRONG_ADMIN_TOKEN;
  secrets['wrong key'] = WRONG_KEY;

  ({ api, worker } = await startApiThenWorker(environment.env));
}, 120_000);

afterAll(async () => {
  if (api) await stopApiProcess(api);
  if (worker) await stopApiProcess(worker);
  await environment?.cleanup();
  await redis?.stop();
});

describe('the logs of an API process and a worker process', () => {
  beforeAll(async () => {
    const admin = environment.env.ADMIN_TOKEN!;
    const ingest = await createKey(admin, ['ingest']);
    const read = await createKey(admin, ['read']);
    secrets['ingest key'] = ingest.key;
    secrets['read key'] = read.key;

    const refusedAdmin = await send('wrong admin token', '/v1/admin/keys', '/admin/keys', {
      headers: { authorization: `Bearer ${WRONG_ADMIN_TOKEN}` },
    });
    expect(refusedAdmin.status).toBe(401);
    const listed = await send('list keys', '/v1/admin/keys', '/admin/keys', {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(listed.status).toBe(200);

    // Ingest: a JSON batch with a bearer key, then NDJSON with X-API-Key.
    const first = await send('ingest json', '/v1/ingest/records', '/ingest/records', {
      method: 'POST',
      headers: { authorization: `Bearer ${ingest.key}`, 'content-type': 'application/json' },
      body: JSON.stringify([records.company('logs.io'), records.company('logs-two.io')]),
      keyId: ingest.id,
    });
    expect(first.status).toBe(202);
    batches.push((first.body as { batch_id: string }).batch_id);
    await settle(batches[0]!, ingest);
    const ndjson = await send('ingest ndjson', '/v1/ingest/records', '/ingest/records', {
      method: 'POST',
      headers: { 'x-api-key': ingest.key, 'content-type': 'application/x-ndjson' },
      body: [records.page('logs.io'), records.page('logs-two.io')]
        .map((record) => JSON.stringify(record))
        .join('\n'),
      keyId: ingest.id,
    });
    expect(ndjson.status).toBe(202);
    batches.push((ndjson.body as { batch_id: string }).batch_id);
    await settle(batches[1]!, ingest);
    // Two batches of fewer records than a chunk: a job each.
    jobs = 2;
    // Other content under a known page: refused at once, for good.
    const conflict = await send('ingest conflict', '/v1/ingest/records', '/ingest/records', {
      method: 'POST',
      headers: { 'x-api-key': ingest.key, 'content-type': 'application/json' },
      body: JSON.stringify([
        records.page('logs.io', '', { pricing_page_url: 'https://logs.io/other-pricing' }),
      ]),
      keyId: ingest.id,
    });
    expect(conflict.status).toBe(202);
    conflictBatch = (conflict.body as { batch_id: string }).batch_id;
    batches.push(conflictBatch);
    await settle(conflictBatch, ingest);
    const invalid = await send('invalid batch', '/v1/ingest/records', '/ingest/records', {
      method: 'POST',
      headers: { 'x-api-key': ingest.key, 'content-type': 'application/json' },
      body: JSON.stringify([{ type: 'company', slug: 'Not A Slug' }]),
      keyId: ingest.id,
    });
    expect(invalid.status).toBe(400);

    // Reads: found (once projected), not found, bad parameter, the key in the query string,
    // a wrong key, no key, the key as X-API-Key.
    await waitFor('the company to be readable', async () => {
      const found = await send('read', '/v1/api/companies/:slug', '/api/companies/logs.io', {
        headers: { authorization: `Bearer ${read.key}` },
        keyId: read.id,
      });
      return found.status === 200 ? true : undefined;
    });
    const bearer = { authorization: `Bearer ${read.key}` };
    const reads: [string, string, string, Record<string, string>, string | null, number[]][] = [
      ['not found', '/v1/api/companies/:slug', '/api/companies/nowhere.io', bearer, read.id, [404]],
      ['bad limit', '/v1/api/companies', '/api/companies?limit=500', bearer, read.id, [400]],
      [
        'key in the query',
        '/v1/api/companies',
        `/api/companies?key=${read.key}&api_key=${read.key}`,
        bearer,
        read.id,
        [200, 400],
      ],
      [
        'only a key in the query',
        '/v1/api/companies',
        `/api/companies?key=${read.key}`,
        {},
        null,
        [401],
      ],
      [
        'wrong key',
        '/v1/api/companies',
        '/api/companies',
        { authorization: `Bearer ${WRONG_KEY}` },
        null,
        [401],
      ],
      [
        'wrong x-api-key',
        '/v1/api/companies',
        '/api/companies',
        { 'x-api-key': WRONG_KEY },
        null,
        [401],
      ],
      ['no key', '/v1/api/companies', '/api/companies', {}, null, [401]],
      [
        'x-api-key',
        '/v1/api/companies',
        '/api/companies',
        { 'x-api-key': read.key },
        read.id,
        [200],
      ],
      ['unknown path', 'unmatched', `/no/such/path?key=${read.key}`, bearer, null, [404]],
    ];
    for (const [what, route, path, headers, keyId, statuses] of reads) {
      const answer = await send(what, route, path, { headers, keyId });
      expect(statuses, what).toContain(answer.status);
    }

    // SIGTERM flushes everything both processes had to say.
    await stopApiProcess(api);
    await stopApiProcess(worker);
    lines = [api, worker].flatMap((child) =>
      child.output
        .split('\n')
        .filter((text) => text.trim() !== '')
        .map((text) => ({ process: child.name, text })),
    );
  }, 120_000);

  it('writes structured JSON only, one object per line, naming the service', () => {
    showOutputOnFailure([api, worker]);
    const notJson = lines.filter(({ text }) => {
      try {
        const parsed = JSON.parse(text) as unknown;
        return typeof parsed !== 'object' || parsed === null || Array.isArray(parsed);
      } catch {
        return true;
      }
    });
    expect(notJson).toEqual([]);
    for (const { process, text } of lines) {
      const line = JSON.parse(text) as LogLine;
      expect(line, text).toMatchObject({
        level: expect.any(Number),
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        service: process,
        pid: expect.any(Number),
      });
    }
  });

  it('logs one line per request with req_id, method, route, status, latency_ms and key_id', () => {
    const requestLines = lines
      .filter(({ process }) => process === 'api')
      .map(({ text }) => JSON.parse(text) as LogLine)
      .filter((line) => line.msg === 'request completed');
    for (const line of requestLines) {
      expect(line).toEqual({
        level: 30,
        time: expect.any(String),
        service: 'api',
        pid: expect.any(Number),
        msg: 'request completed',
        req_id: expect.any(String),
        method: expect.any(String),
        route: expect.any(String),
        status: expect.any(Number),
        latency_ms: expect.any(Number),
        key_id: line.key_id === null ? null : expect.any(String),
      });
    }
    for (const request of sent) {
      const matching = requestLines.filter((line) => line.req_id === request.requestId);
      expect(matching, request.what).toHaveLength(1);
      expect(matching[0], request.what).toMatchObject({
        method: request.method,
        route: request.route,
        status: request.status,
        key_id: request.keyId,
      });
    }
  });

  it('logs one line per job with job_id, batch_id and outcome', () => {
    const jobLines = lines
      .filter(({ process }) => process === 'worker')
      .map(({ text }) => JSON.parse(text) as LogLine)
      .filter((line) => line.job_id !== undefined);
    const done = jobLines.filter((line) => line.msg === 'job done');
    expect(done).toHaveLength(jobs);
    for (const line of jobLines) {
      expect(line, JSON.stringify(line)).toMatchObject({
        job_id: expect.any(String),
        records: expect.any(Number),
        batch_id: expect.any(String),
        outcome: expect.stringMatching(/^(appended|duplicate|retrying|failed)$/),
      });
      expect(batches).toContain(line.batch_id);
    }
    expect(done.map((line) => line.outcome)).toEqual(Array(jobs).fill('appended'));
  });

  it('logs a job refused without retry (a conflict) as failed for good, once', () => {
    const conflictLines = lines
      .filter(({ process }) => process === 'worker')
      .map(({ text }) => JSON.parse(text) as LogLine)
      .filter((line) => line.batch_id === conflictBatch);
    expect(
      conflictLines.map(({ level, msg, outcome, attempt }) => ({ level, msg, outcome, attempt })),
      JSON.stringify(conflictLines),
    ).toEqual([{ level: 40, msg: 'job failed for good', outcome: 'failed', attempt: 1 }]);
  });

  it('never writes an API key, a wrong key, the admin token or a password', () => {
    expect(Object.keys(secrets)).toEqual(
      expect.arrayContaining(['ingest key', 'read key', 'admin token', 'redis password']),
    );
    const leaks = lines.flatMap(({ process, text }) =>
      Object.entries(secrets)
        .filter(([, value]) => text.includes(value))
        .map(([name]) => `${process} wrote the ${name}: ${text}`),
    );
    expect(leaks).toEqual([]);
    // The raw URL never reaches a line, only the route template.
    expect(
      lines.filter(({ text }) => text.includes('?key=') || text.includes('limit=500')),
    ).toEqual([]);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL?.startsWith('postgres'))(
    'carried a database password (PostgreSQL) that the check above looked for',
    () => {
      expect(secrets['database password']).toBe(DATABASE_PASSWORD);
      expect(environment.env.DATABASE_URL).toContain(`:${DATABASE_PASSWORD}@`);
    },
  );
});
