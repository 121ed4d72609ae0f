import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisAnswers } from '../apps/api/src/local-redis.js';
import { getJson } from './support/catalogue-fixture.js';
import { freePort } from './support/free-port.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';
import { waitFor } from './support/wait-for.js';

// A Redis of this file's own, so stopping it disturbs no other test.
const port = await freePort();
const environment = testEnvironment({ REDIS_URL: `redis://127.0.0.1:${port}` });
let redis: ChildProcess | null = null;
let api: TestApp;

async function startRedis(): Promise<void> {
  redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  await waitFor('redis to answer', async () =>
    (await redisAnswers('127.0.0.1', port)) ? true : undefined,
  );
}

async function stopRedis(): Promise<void> {
  const stopping = redis;
  redis = null;
  if (!stopping) return;
  const exited = new Promise((done) => stopping.once('exit', done));
  stopping.kill('SIGKILL');
  await exited;
}

const post = async (key: string, slug: string) =>
  api.request('/ingest/records', {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify([records.company(slug)]),
    signal: AbortSignal.timeout(10_000),
  });

beforeAll(async () => {
  await startRedis();
  api = await startTestApp(environment.config(), { withWorker: false });
});

afterAll(async () => {
  await api?.close();
  await stopRedis();
  await environment.cleanup();
});

describe('ingestion while Redis is unreachable', () => {
  it('answers 503 with retry_after (never hangs, never a 500) and recovers without a restart', async () => {
    const key = await api.createKey(['ingest']);
    expect((await post(key, 'before.io')).status).toBe(202);

    await stopRedis();
    const started = Date.now();
    const refused = await post(key, 'during.io');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    const body = (await refused.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      error: 'Service Unavailable',
      details: { retry_after: expect.any(Number) },
    });
    expect(body.retry_after).toBe((body.details as { retry_after: number }).retry_after);

    await startRedis();
    const recovered = await waitFor('ingest to accept again', async () => {
      const response = await post(key, 'after.io');
      return response.status === 202 ? response : undefined;
    });
    expect(recovered.status).toBe(202);
  });
});

describe('metered reads while Redis is unreachable', () => {
  interface UnavailableBody {
    error: string;
    message: string;
    details: { retry_after: number };
    retry_after: number;
  }
  interface UsageBody {
    hourly: { limit: number; used: number; window_started_at: string | null };
    credits: { used: number };
  }

  const read = (path: string, key: string) => getJson<UnavailableBody>(api, path, key);

  it('answers 503 (never an uncounted 200, never a 500) and counts again once Redis is back', async () => {
    const key = await api.createKey(['read']);
    const admitted = await read('/api/companies', key);
    expect(admitted.status).toBe(200);

    await stopRedis();
    // The key is known to the process, so only the metering step can fail: it must refuse.
    for (const path of ['/api/companies', '/api/usage']) {
      const refused = await read(path, key);
      expect(refused.status, path).toBe(503);
      expect(refused.body, path).toMatchObject({
        error: 'Service Unavailable',
        message: expect.any(String),
        details: { retry_after: expect.any(Number) },
      });
      expect(refused.body.retry_after, path).toBe(refused.body.details.retry_after);
      expect(refused.body.retry_after, path).toBeGreaterThanOrEqual(1);
      expect(refused.headers.get('retry-after'), path).toBe(String(refused.body.retry_after));
    }

    // The same app, not restarted; this Redis is a new, empty one (no scripts, no counters).
    await startRedis();
    const recovered = await waitFor('the metered read to be served again', async () => {
      const response = await read('/api/companies', key);
      return response.status === 503 ? undefined : response;
    });
    expect(recovered.status).toBe(200);
    expect(recovered.headers.get('x-ratelimit-remaining')).toBe(
      String(Number(recovered.headers.get('x-ratelimit-limit')) - 1),
    );
    const usage = await getJson<UsageBody>(api, '/api/usage', key);
    expect(usage.status).toBe(200);
    expect(usage.body.hourly.used).toBe(1);
    expect(usage.body.credits.used).toBe(1);
    expect(usage.body.hourly.window_started_at).not.toBeNull();
  });
});

describe('metered reads while Redis stalls or refuses writes', () => {
  const read = (path: string, key: string) =>
    getJson<{ error: string; retry_after: number }>(api, path, key);
  const admin = () => new Redis(`redis://127.0.0.1:${port}`);

  it('answers 503 when Redis is out of memory (a write refused with OOM)', async () => {
    const key = await api.createKey(['read']);
    expect((await read('/api/companies', key)).status).toBe(200);
    const redis = admin();
    try {
      await redis.config('SET', 'maxmemory-policy', 'noeviction');
      await redis.config('SET', 'maxmemory', '1');
      const refused = await read('/api/companies', key);
      expect(refused.status).toBe(503);
      expect(refused.body.error).toBe('Service Unavailable');
      expect(refused.headers.get('retry-after')).toBe(String(refused.body.retry_after));
    } finally {
      await redis.config('SET', 'maxmemory', '0');
      redis.disconnect();
    }
    expect((await read('/api/companies', key)).status).toBe(200);
  });

  it('answers 503 within seconds when Redis stops answering, serves again when it resumes, and charges only the 2xx', async () => {
    const key = await api.createKey(['read']);
    expect((await read('/api/companies', key)).status).toBe(200);
    redis!.kill('SIGSTOP');
    try {
      const started = Date.now();
      const refused = await read('/api/companies', key);
      expect(refused.status).toBe(503);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      redis!.kill('SIGCONT');
    }
    const recovered = await waitFor('a metered read to be served again', async () => {
      const response = await read('/api/companies', key);
      return response.status === 200 ? response : undefined;
    });
    expect(recovered.status).toBe(200);
    // Redis ran the stalled count once it resumed, after the request had its 503: that charge
    // is given back, so the key ends charged for its two 2xx answers only.
    const credits = () =>
      getJson<{ credits: { used: number } }>(api, '/api/usage', key).then(
        (usage) => usage.body.credits.used,
      );
    await waitFor('the late charge to be given back', async () =>
      (await credits()) === 2 ? true : undefined,
    );
  });
});
