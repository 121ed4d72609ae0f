import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransactionRunner } from '#app/persistence';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';
import { waitFor } from './support/wait-for.js';

const environment = testEnvironment();
let api: TestApp;
let key: string;

beforeAll(async () => {
  api = await startTestApp(environment.config());
  await api.settled(await api.ingest([records.company('broken.io'), records.page('broken.io')]));
  key = await api.createKey(['read']);
  // A settled batch is in the log; the page must also be projected, or the slug is a 404.
  await waitFor('the page to be readable', async () => {
    const response = await api.request('/api/pages/broken.io', {
      headers: { authorization: `Bearer ${key}` },
    });
    return response.status === 200 ? true : undefined;
  });
  // A real failing query: the read models vanish from under the running service.
  const database = api.app.get(TransactionRunner);
  await database.query('DROP TABLE scrape_files');
  await database.query('DROP TABLE pricing_snapshots');
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

describe('a failed data query on files and pricing', () => {
  it.each(['/api/files/broken.io/version/20250101', '/api/pricing/broken.io'])(
    '%s answers 500 DB_ERROR with a request id, and nothing internal',
    async (path) => {
      const response = await api.request(path, {
        headers: { authorization: `Bearer ${key}`, 'x-request-id': 'db-error-check' },
      });
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({
        error: 'A data query failed',
        code: 'DB_ERROR',
        request_id: 'db-error-check',
        timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      });
      expect(text).not.toMatch(/SELECT|scrape_files|pricing_snapshots|at \w+ \(|\.ts:/i);
    },
  );
});
