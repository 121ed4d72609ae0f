import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cspViolations, launchBrowser } from './support/browser.js';
import {
  getJson,
  ingestAndProject,
  type CodedErrorBody,
  type GeneralErrorBody,
} from './support/catalogue-fixture.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/**
 * What the HTTP edge promises whatever a client sends: security headers on every answer, no
 * cross-origin access for browsers, size limits on URLs, headers and bodies answered in the
 * documented error shape, and no secret echoed back in any answer.
 */

const environment = testEnvironment();
let api: TestApp;
let key: string;

beforeAll(async () => {
  api = await startTestApp(environment.config(), { withWorker: true });
  key = await api.createKey(['read']);
  await ingestAndProject(api, [records.company('edge.io'), records.page('edge.io')]);
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

const usage = async () =>
  (await getJson<{ credits: { used: number } }>(api, '/api/usage', key)).body.credits.used;

describe('security headers (@fastify/helmet)', () => {
  /** The headers that keep a browser from sniffing, framing or leaking what it loaded. */
  function expectSecurityHeaders(headers: Headers) {
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
    expect(headers.get('referrer-policy')).toBe('no-referrer');
    expect(headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(headers.has('x-powered-by')).toBe(false);
  }

  it('are on a JSON answer, on an error, on a public route and on the docs page', async () => {
    expectSecurityHeaders((await getJson(api, '/api/companies/edge.io', key)).headers);
    expectSecurityHeaders((await getJson(api, '/api/companies/edge.io', null)).headers);
    expectSecurityHeaders((await api.request('/api/openapi.json')).headers);
    const docs = await fetch(`${api.baseUrl}/docs`);
    expect(docs.status).toBe(200);
    expectSecurityHeaders(docs.headers);
  });

  it('let Swagger UI render in a browser with no Content-Security-Policy violation', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const violations = cspViolations(page);
      await page.goto(`${api.baseUrl}/docs`);
      await page.getByText('/v1/api/companies/{slug}', { exact: true }).first().waitFor();
      expect(violations).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

describe('CORS: browsers on other origins may not call the API (a key must stay server-side)', () => {
  const ORIGIN = 'https://pricing-dashboard.example';

  it('a cross-origin GET is served, but without Access-Control-Allow-Origin the browser keeps it from the page', async () => {
    const response = await getJson(api, '/api/companies/edge.io', key, { origin: ORIGIN });
    expect(response.status).toBe(200);
    expect(response.headers.has('access-control-allow-origin')).toBe(false);
  });

  it('a preflight is not approved, so a browser never sends the request', async () => {
    const response = await fetch(`${api.baseUrl}/api/companies/edge.io`, {
      method: 'OPTIONS',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-api-key',
      },
    });
    expect(response.status).toBe(404);
    for (const header of response.headers.keys()) expect(header).not.toMatch(/^access-control-/);
  });
});

describe('size limits, answered in the documented shapes', () => {
  it('refuses a URL over 4 KB with 414 before authenticating or charging', async () => {
    const before = await usage();
    const search = 'a'.repeat(4 * 1024);
    const general = await getJson<GeneralErrorBody>(api, `/api/companies?search=${search}`, key);
    expect(general.status).toBe(414);
    expect(general.body).toMatchObject({
      error: 'URI Too Long',
      message: 'The URL is longer than 4096 bytes',
      details: { limit_bytes: 4096 },
    });
    const coded = await getJson<CodedErrorBody>(api, `/api/files/edge.io?x=${search}`, key);
    expect(coded.status).toBe(414);
    expect(coded.body).toMatchObject({ code: 'URI_TOO_LONG' });
    expect(await usage()).toBe(before);
  });

  it('refuses headers over 16 KB with 431 (coded shape on files, general elsewhere)', async () => {
    const padding = { 'x-padding': 'p'.repeat(17 * 1024) };
    const general = await getJson<GeneralErrorBody>(api, '/api/companies', key, padding);
    expect(general.status).toBe(431);
    expect(general.body).toEqual({
      error: 'Request Header Fields Too Large',
      message: 'The request line and headers are too large',
    });
    const coded = await getJson<CodedErrorBody>(api, '/api/files/edge.io', key, padding);
    expect(coded.status).toBe(431);
    expect(coded.body).toEqual({
      error: 'The request line and headers are too large',
      code: 'HEADERS_TOO_LARGE',
    });
  });

  it('refuses a body over 5 MB with 413 on every route that takes one', async () => {
    const response = await api.request('/admin/keys', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${environment.env.ADMIN_TOKEN}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ name: 'n'.repeat(6 * 1024 * 1024), plan: 'free' }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: 'Payload Too Large' });
  });

  it('answers bytes that are not HTTP with 400 and closes the connection', async () => {
    const socket = connect(Number(new URL(api.baseUrl).port), '127.0.0.1');
    socket.write('NONSENSE\r\n\r\n');
    let answer = '';
    for await (const chunk of socket) answer += String(chunk);
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(JSON.parse(answer.split('\r\n\r\n')[1] as string)).toEqual({
      error: 'Bad Request',
      message: 'The request is not valid HTTP',
    });
  });
});

describe('secrets never come back in an answer', () => {
  it('no error body or header repeats a presented key or admin token', async () => {
    const wrongKey = `pi_${'W'.repeat(43)}`;
    const malformedKey = 'pi_<script>secret-looking-value</script>';
    const wrongToken = 'wrong-admin-token-0123456789-secret';
    const secrets = [wrongKey, malformedKey, wrongToken, key, environment.env.ADMIN_TOKEN!];
    const answers = await Promise.all([
      fetch(`${api.baseUrl}/api/companies`, { headers: { authorization: `Bearer ${wrongKey}` } }),
      fetch(`${api.baseUrl}/api/files/edge.io`, { headers: { 'x-api-key': wrongKey } }),
      fetch(`${api.baseUrl}/api/companies`, { headers: { 'x-api-key': malformedKey } }),
      fetch(`${api.baseUrl}/admin/keys`, { headers: { authorization: `Bearer ${wrongToken}` } }),
      // The right key where it has no scope or is not the admin token.
      fetch(`${api.baseUrl}/ingest/records`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: '[]',
      }),
      fetch(`${api.baseUrl}/admin/keys`, { headers: { authorization: `Bearer ${key}` } }),
      // A key where none is read: in the query string.
      fetch(`${api.baseUrl}/api/companies?api_key=${key}`),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      const text = `${[...answer.headers].join('\n')}\n${await answer.text()}`;
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
  });
});
