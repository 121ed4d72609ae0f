import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson } from './support/catalogue-fixture.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/**
 * Methods no route serves, sent over a real socket as a client would (an injected request
 * would not go through Node's parser, which hands CONNECT to its own event): 405 in the
 * documented error shape, with Allow when the path has routes, never charged.
 */

const environment = testEnvironment();
let api: TestApp;
let origin: string;
let port: number;
let key: string;

beforeAll(async () => {
  api = await startTestApp(environment.config(), { withWorker: false });
  origin = new URL(api.baseUrl).origin;
  port = Number(new URL(api.baseUrl).port);
  key = await api.createKey(['read']);
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** A request with Node's HTTP client, which sends any method token as it is. */
function send(method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${origin}${path}`, { method, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: JSON.parse(text),
        }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** Everything the server writes back to `requestHead` before it closes the connection. */
function rawExchange(requestHead: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(requestHead));
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

const usage = async () =>
  (await getJson<{ credits: { used: number } }>(api, '/api/usage', key)).body.credits.used;

describe('a method no route serves', () => {
  it.each(['TRACE', 'PROPFIND', 'PURGE', 'LINK', 'M-SEARCH'])(
    '%s gets 405 with the methods the path serves, before the key is checked or charged',
    async (method) => {
      const before = await usage();
      const answer = await send(method, '/v1/api/companies?limit=5', {
        authorization: `Bearer ${key}`,
      });
      expect(answer.status).toBe(405);
      expect(answer.headers.allow).toBe('GET, HEAD');
      expect(answer.headers['x-request-id']).toEqual(expect.any(String));
      expect(answer.body).toEqual({
        error: 'Method Not Allowed',
        message: `The ${method} method is not served`,
        details: { allow: ['GET', 'HEAD'] },
      });
      expect(await usage()).toBe(before);
    },
  );

  it('QUERY, which Fastify would take with a body, is refused the same way', async () => {
    const answer = await send('QUERY', '/v1/api/webhooks', { 'content-type': 'application/json' });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('GET, HEAD, POST');
  });

  it('answers in the coded shape under files and pricing, and without Allow where no route is', async () => {
    const coded = await send('TRACE', '/v1/api/pricing/acme.io/versions');
    expect(coded.status).toBe(405);
    expect(coded.headers.allow).toBe('GET, HEAD');
    expect(coded.body).toEqual({
      error: 'The TRACE method is not served',
      code: 'METHOD_NOT_ALLOWED',
      details: { allow: ['GET', 'HEAD'] },
    });
    const nowhere = await send('PROPFIND', '/nowhere');
    expect(nowhere.status).toBe(405);
    expect(nowhere.headers.allow).toBeUndefined();
    expect(nowhere.body).toEqual({
      error: 'Method Not Allowed',
      message: 'The PROPFIND method is not served',
    });
  });

  it('CONNECT, which Node never routes, gets a 405 and then the connection closes', async () => {
    const tunnel = await rawExchange(
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
    );
    const [head = '', body = ''] = tunnel.split('\r\n\r\n');
    const [statusLine, ...headerLines] = head.split('\r\n');
    expect(statusLine).toBe('HTTP/1.1 405 Method Not Allowed');
    const headers = Object.fromEntries(
      headerLines.map((line) => [
        line.slice(0, line.indexOf(':')).toLowerCase(),
        line.slice(line.indexOf(':') + 2),
      ]),
    );
    expect(headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      connection: 'close',
      'x-request-id': expect.any(String),
    });
    // A tunnel names a host, not a path: nothing to allow.
    expect(headers.allow).toBeUndefined();
    expect(JSON.parse(body)).toEqual({
      error: 'Method Not Allowed',
      message: 'The CONNECT method is not served',
    });

    const toPath = await rawExchange('CONNECT /v1/api/companies HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(toPath).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    expect(toPath).toContain('\r\nAllow: GET, HEAD\r\n');
  });

  it('CONNECT through Node HTTP client: its connect event sees the 405', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const tunnel = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'CONNECT',
        path: 'example.com:443',
      });
      tunnel.on('connect', (response, socket) => {
        socket.destroy();
        resolve(response.statusCode ?? 0);
      });
      tunnel.on('error', reject);
      tunnel.end();
    });
    expect(status).toBe(405);
  });
});

describe('a method some route serves', () => {
  it('keeps the 404 of an unknown route, OPTIONS (a preflight) included', async () => {
    for (const method of ['DELETE', 'OPTIONS']) {
      const answer = await send(method, '/v1/api/companies');
      expect(answer.status, method).toBe(404);
      expect(answer.body, method).toEqual({
        error: 'Not Found',
        message: `Cannot ${method} /v1/api/companies`,
      });
    }
  });
});
