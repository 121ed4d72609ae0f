import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, cspViolations } from './support/browser.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/* GET /v1 and GET /: what a newcomer sees at the address `npm start` prints. */

const environment = testEnvironment();
let api: TestApp;
let origin: string;

beforeAll(async () => {
  api = await startTestApp(environment.config(), { withWorker: false });
  origin = new URL(api.baseUrl).origin;
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

interface Index {
  service: string;
  api_version: string;
  base_url: string;
  links: Record<string, string>;
}

describe('the index at /v1 and /', () => {
  it.each(['/v1', '/'])(
    '%s answers JSON without a key, uncounted, linking the docs',
    async (path) => {
      const response = await fetch(`${origin}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.has('x-ratelimit-limit')).toBe(false);
      const index = (await response.json()) as Index;
      expect(index).toMatchObject({
        api_version: 'v1',
        base_url: '/v1',
        links: { docs: '/v1/docs', openapi: '/v1/api/openapi.json', explorer: '/explorer' },
      });
      // Every link leads somewhere: the public ones answer, the keyed ones ask for a key.
      for (const link of Object.values(index.links)) {
        const target = await fetch(`${origin}${link}`);
        // Read to the end: an unread body (the OpenAPI document) holds its connection open,
        // and closing the app then waits for it.
        await target.arrayBuffer();
        expect([200, 401], link).toContain(target.status);
      }
    },
  );

  it('is a page for a browser, whose links lead to the docs, the OpenAPI document and the explorer', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const violations = cspViolations(page);
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });

      await page.goto(`${origin}/v1`);
      expect(await page.locator('h1').textContent()).toBe('Pricing intelligence data service');
      await page.getByRole('link', { name: 'OpenAPI document' }).click();
      await page.waitForURL(`${origin}/v1/api/openapi.json`);
      await page.goto(`${origin}/`);
      await page.getByRole('link', { name: 'API documentation' }).click();
      await page.getByText('/v1/api/companies/{slug}', { exact: true }).first().waitFor();
      await page.goto(`${origin}/`);
      await page.getByRole('link', { name: 'Pricing explorer' }).click();
      await page.getByLabel(/^API key/).waitFor();
      expect(violations).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

describe('every 401 names the scheme it accepts (RFC 6750)', () => {
  it.each([
    ['a read route without a key', '/v1/api/companies', {}],
    [
      'a files route with a malformed key',
      '/v1/api/files/edge.io/version/20250105',
      { authorization: 'Bearer nope' },
    ],
    [
      'ingestion with an unknown key',
      '/v1/ingest/batches/5f0c2a3e-1b4d-4c6e-8f9a-0b1c2d3e4f50',
      { 'x-api-key': `pi_${'A'.repeat(43)}` },
    ],
    ['the admin API with a wrong token', '/v1/admin/keys', { authorization: 'Bearer wrong-token' }],
    ['the queue dashboard API without a token', '/v1/admin/queues/api/queues', {}],
  ])('%s', async (_what, path, headers: Record<string, string>) => {
    const response = await fetch(`${origin}${path}`, { headers });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });
});
