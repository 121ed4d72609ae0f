import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BODY_LIMIT_BYTES } from '../apps/api/src/http/request-bodies.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/**
 * What the standing fuzz test (fuzz.e2e.test.ts) found, each pinned by a request of its own.
 * Every response goes through test-app's request(), which fails on a status the document does
 * not list for the operation.
 */

const environment = testEnvironment({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
let app: TestApp;
let key: string;

beforeAll(async () => {
  app = await startTestApp(environment.config(), { withWorker: false });
  key = await app.createKey(['read']);
});

afterAll(async () => {
  await app?.close();
  await environment.cleanup();
});

describe('findings of the fuzz test', () => {
  it('a DELETE carrying a body of a type the service does not read gets the documented 415', async () => {
    const registered = await app.request('/api/webhooks', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/hooks' }),
    });
    const { id } = (await registered.json()) as { id: string };
    const response = await app.request(`/api/webhooks/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv' },
      body: 'a,b',
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ error: 'Unsupported Media Type' });
  });

  it('a DELETE carrying a body over the size limit gets the documented 413', async () => {
    const response = await app.request('/admin/keys/2d9c0b5e-1f4a-4e63-9b8d-7a6c5e4f3d2b', {
      method: 'DELETE',
      headers: {
        authorization: `Bearer ${environment.env.ADMIN_TOKEN}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify('x'.repeat(DEFAULT_BODY_LIMIT_BYTES)),
    });
    expect(response.status).toBe(413);
  });

  it('a change feed cursor past the largest bigint is a 400, not a failed query', async () => {
    // The form of a cursor allows 19 digits; PostgreSQL refused 9223372036854775808 with a 500.
    for (const position of ['9223372036854775808.0.0', '0.9999999999999999999.0']) {
      const since = Buffer.from(position).toString('base64url');
      const response = await app.request(`/api/changes?since=${since}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(response.status, position).toBe(400);
      expect(await response.json()).toMatchObject({ details: { parameter: 'since' } });
    }
  });
});
