import { request as httpRequest } from 'node:http';
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

  const admin = (body: string, contentType = 'application/json', extra = {}) =>
    api.request('/admin/keys', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${environment.env.ADMIN_TOKEN}`,
        'content-type': contentType,
        ...extra,
      },
      body,
    });

  it('refuses a body over 64 KB with 413 before parsing it, on every route but the batch one', async () => {
    // Not JSON at all: a 413 rather than a 400 shows the body was refused unread.
    const tooLong = `{${'x'.repeat(200 * 1024)}`;
    for (const answer of [
      await admin(tooLong),
      await api.request('/api/webhooks', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: tooLong,
      }),
      await fetch(`${api.baseUrl.replace(/\/v1$/, '')}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: tooLong,
      }),
    ]) {
      expect(answer.status).toBe(413);
      expect(await answer.json()).toEqual({
        error: 'Payload Too Large',
        message: 'Request body is too large',
      });
    }
    // Just under the limit the body is read, parsed and judged on its merits.
    const underLimit = JSON.stringify({ name: 'n'.repeat(60 * 1024), plan: 'free' });
    expect((await admin(underLimit)).status).toBe(400);
  });

  it('takes a batch over 64 KB, and refuses one over 5 MB with 413', async () => {
    const ingestKey = await api.createKey(['ingest']);
    const post = (body: string) =>
      api.request('/ingest/records', {
        method: 'POST',
        headers: { authorization: `Bearer ${ingestKey}`, 'content-type': 'application/json' },
        body,
      });
    const batch = Array.from({ length: 1_000 }, (_, i) =>
      records.company(`edge-${i}.io`, { name: `Edge ${i} ${'n'.repeat(100)}` }),
    );
    expect(JSON.stringify(batch).length).toBeGreaterThan(64 * 1024);
    expect((await post(JSON.stringify(batch))).status).toBe(202);
    const huge = await post(JSON.stringify('x'.repeat(5 * 1024 * 1024)));
    expect(huge.status).toBe(413);
  });

  it('refuses a body on a GET over 64 KB, and one in a content coding, before reading it', async () => {
    // fetch sends no body on a GET: a request written by hand.
    const status = await new Promise<number>((done, fail) => {
      const sent = httpRequest(
        {
          host: '127.0.0.1',
          port: new URL(api.baseUrl).port,
          method: 'GET',
          path: '/v1/api/companies',
          headers: { authorization: `Bearer ${key}`, 'content-length': 200 * 1024 },
        },
        (answer) => {
          answer.resume();
          done(answer.statusCode ?? 0);
        },
      );
      sent.on('error', fail);
      sent.end('x'.repeat(200 * 1024));
    });
    expect(status).toBe(413);
    const gzipped = await admin('{"name":"n","plan":"free"}', 'application/json', {
      'content-encoding': 'gzip',
    });
    expect(gzipped.status).toBe(415);
    expect(await gzipped.json()).toMatchObject({
      error: 'Unsupported Media Type',
      details: { content_encoding: 'gzip' },
    });
  });

  it("takes NDJSON on the batch route alone: 415 elsewhere, in the route's shape", async () => {
    const answer = await admin('{"name":"n","plan":"free"}\n', 'application/x-ndjson');
    expect(answer.status).toBe(415);
    expect(await answer.json()).toMatchObject({
      error: 'Unsupported Media Type',
      details: { content_type: 'application/x-ndjson' },
    });
  });

  it('refuses a JSON body nested deeper than 32 levels or holding over 10,000 values', async () => {
    const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    const deep = await admin(
      JSON.stringify({ name: 'n', plan: 'free', x: JSON.parse(nested(32)) }),
    );
    expect(deep.status).toBe(400);
    expect(await deep.json()).toMatchObject({
      error: 'Bad Request',
      details: {
        errors: [{ reasons: ['arrays and objects may nest at most 32 levels deep'] }],
      },
    });
    // The object and its three values, then 9,996 numbers: 10,000 values in all.
    const values = (count: number) =>
      JSON.stringify({ name: 'n', plan: 'free', scopes: Array.from({ length: count }, () => 0) });
    const atLimit = await admin(values(9_996));
    expect(await atLimit.json()).not.toMatchObject({
      details: { errors: [{ reasons: ['a body holds at most 10000 values in all'] }] },
    });
    const overLimit = await admin(values(9_997));
    expect(overLimit.status).toBe(400);
    expect(await overLimit.json()).toMatchObject({
      details: { errors: [{ reasons: ['a body holds at most 10000 values in all'] }] },
    });
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
