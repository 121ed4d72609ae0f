import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '#app/config';
import { INGEST_QUEUE, QUEUES } from '#app/contracts';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cspViolations, launchBrowser } from './support/browser.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

const ARTIFACTS = fileURLToPath(new URL('../test-artifacts/', import.meta.url));

const environment = testEnvironment({
  // A record whose company never arrives fails for good quickly.
  INGEST_ATTEMPTS: '2',
  INGEST_BACKOFF_MS: '50',
  // Each test sends its own client address (X-Forwarded-For from 127.0.0.1 is believed), so the
  // failures one test counts do not limit another; the browser is 127.0.0.1 and never fails.
  TRUST_PROXY: '127.0.0.1',
});
/** The failed authentications an address may make a minute: the default users get. */
const FAILURES_ALLOWED = environment.config().limits.authFailuresPerMinute;
const adminToken = environment.env.ADMIN_TOKEN as string;
let api: TestApp;
/** http://127.0.0.1:<port>/v1/admin/queues */
let dashboard: string;

let addresses = 0;
/** A client address of its own for one test. */
function clientAddress(): string {
  addresses += 1;
  return `203.0.113.${addresses}`;
}

/** A request to the dashboard as a script would send it: redirects are not followed. */
function call(
  path: string,
  address: string,
  { headers = {}, ...init }: RequestInit & { headers?: Record<string, string> } = {},
): Promise<Response> {
  return fetch(`${dashboard}${path}`, {
    redirect: 'manual',
    ...init,
    headers: { 'x-forwarded-for': address, ...headers },
  });
}

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** `name=value` and the attributes of the session cookie a response sets. */
function sessionCookie(response: Response): { pair: string; value: string; attributes: string[] } {
  const header = response.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith('queue_dashboard_session='));
  if (!header) throw new Error(`no session cookie in ${response.headers.getSetCookie().join()}`);
  const [pair = '', ...attributes] = header.split(';').map((part) => part.trim());
  return { pair, value: pair.slice(pair.indexOf('=') + 1), attributes };
}

function login(address: string, token: string, next?: string): Promise<Response> {
  const form = new URLSearchParams({ token, ...(next === undefined ? {} : { next }) });
  return call('/login', address, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
}

/** The ingest queue as BullMQ sees it: what the dashboard did, or did not do, to it. */
async function onIngestQueue<T>(use: (queue: Queue) => Promise<T>): Promise<T> {
  const queue = new Queue(INGEST_QUEUE, {
    connection: { url: environment.env.REDIS_URL },
    prefix: environment.env.QUEUE_PREFIX,
  });
  try {
    return await use(queue);
  } finally {
    await queue.close();
  }
}

beforeAll(async () => {
  api = await startTestApp(environment.config());
  dashboard = `${new URL(api.baseUrl).origin}/v1/admin/queues`;
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

describe('the queue dashboard without a browser', () => {
  it('sends a browser without a session to the login page and a script a 401, uncounted', async () => {
    const address = clientAddress();
    const page = await call('/queue/ingest?status=failed', address, { headers: HTML });
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe(
      `/v1/admin/queues/login?next=${encodeURIComponent('/v1/admin/queues/queue/ingest?status=failed')}`,
    );
    const form = await call('/login', address, { headers: HTML });
    expect(form.status).toBe(200);
    expect(form.headers.get('content-type')).toContain('text/html');
    // So that its form's POST names this origin (no-referrer makes it `Origin: null`).
    expect(form.headers.get('referrer-policy')).toBe('same-origin');
    const html = await form.text();
    expect(html).toContain('type="password"');
    expect(html).toContain('value="/v1/admin/queues/"');
    // More requests without credentials than the limit allows failures: none is a failure.
    const paths = ['/api/queues', '/', '/static/images/logo.svg'];
    for (let request = 0; request <= FAILURES_ALLOWED; request += 1) {
      const path = paths[request % paths.length] as string;
      const response = await call(path, address);
      expect(response.status, path).toBe(401);
      expect(await response.json()).toEqual({
        error: 'Unauthorized',
        message: 'A valid admin token or dashboard session is required',
        details: {
          hint: 'Send "Authorization: Bearer <ADMIN_TOKEN>", or log in at /v1/admin/queues/login',
        },
      });
    }
  });

  it('admits the admin token as a Bearer, for the JSON API and the pages', async () => {
    const address = clientAddress();
    const queues = await call('/api/queues', address, { headers: bearer(adminToken) });
    expect(queues.status).toBe(200);
    const body = (await queues.json()) as { queues: { name: string; readOnlyMode: boolean }[] };
    expect(body.queues.map((queue) => queue.name).sort()).toEqual([...QUEUES].sort());
    expect(body.queues.every((queue) => !queue.readOnlyMode)).toBe(true);
    const page = await call('/', address, { headers: { ...HTML, ...bearer(adminToken) } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<base href="/v1/admin/queues/" />');
    const asset = await call('/static/images/logo.svg', address, { headers: bearer(adminToken) });
    expect(asset.status).toBe(200);
  });

  it('refuses a wrong token with 401, counted against the address: 429 past the limit', async () => {
    const address = clientAddress();
    for (let attempt = 1; attempt <= FAILURES_ALLOWED; attempt += 1) {
      const response = await call('/api/queues', address, { headers: bearer(`${adminToken}x`) });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        error: 'Unauthorized',
        message: 'A valid admin token is required',
        details: { hint: 'Send "Authorization: Bearer <ADMIN_TOKEN>"' },
      });
    }
    const limited = await call('/api/queues', address, { headers: bearer(`${adminToken}x`) });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({
      error: 'Rate limit exceeded',
      message: `More than ${FAILURES_ALLOWED} failed authentications a minute from this address`,
    });
  });

  it('refuses a wrong token at the login form with the form again, counted the same way', async () => {
    const address = clientAddress();
    for (let attempt = 1; attempt <= FAILURES_ALLOWED; attempt += 1) {
      const response = await login(address, `${adminToken}x`);
      expect(response.status).toBe(401);
      expect(response.headers.getSetCookie()).toEqual([]);
      const html = await response.text();
      expect(html).toContain('That is not the admin token.');
      expect(html).toContain('type="password"');
      expect(html).not.toContain(adminToken);
    }
    const limited = await login(address, `${adminToken}x`);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.text()).toContain('Too many failed attempts');
    const json = await call('/login', address, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: 'not the token at all' }),
    });
    expect(json.status).toBe(429);
    expect(await json.json()).toMatchObject({ error: 'Rate limit exceeded' });
  });

  it('logs in with a form or JSON: an HttpOnly, SameSite=Strict cookie that is not the token', async () => {
    const address = clientAddress();
    const response = await login(address, adminToken, '/v1/admin/queues/queue/ingest');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/v1/admin/queues/queue/ingest');
    const cookie = sessionCookie(response);
    expect(cookie.value).not.toContain(adminToken);
    expect(cookie.value).not.toContain(encodeURIComponent(adminToken));
    expect(cookie.value).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
    expect(cookie.attributes).toEqual(
      expect.arrayContaining([
        'Path=/v1/admin/queues',
        'HttpOnly',
        'SameSite=Strict',
        'Max-Age=43200',
      ]),
    );
    expect(cookie.attributes).not.toContain('Secure');

    const queues = await call('/api/queues', address, { headers: { cookie: cookie.pair } });
    expect(queues.status).toBe(200);
    const page = await call('/queue/ingest', address, {
      headers: { ...HTML, cookie: cookie.pair },
    });
    expect(page.status).toBe(200);
    const forged = await call('/api/queues', address, {
      headers: { cookie: `queue_dashboard_session=${adminToken}` },
    });
    expect(forged.status).toBe(401);

    const json = await call('/login', address, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: adminToken }),
    });
    expect(json.status).toBe(303);
    expect(json.headers.get('location')).toBe('/v1/admin/queues/');
    expect(sessionCookie(json).value).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);

    // Only dashboard pages are a place to return to.
    const elsewhere = await login(address, adminToken, 'https://evil.example/v1/admin/queues');
    expect(elsewhere.headers.get('location')).toBe('/v1/admin/queues/');
    // A browser resolves %2e%2e as .., outside the dashboard.
    const upwards = await login(address, adminToken, '/v1/admin/queues/%2e%2e/keys');
    expect(upwards.headers.get('location')).toBe('/v1/admin/queues/');
  });

  it('logs out on POST only: GET /logout answers a page whose button posts it', async () => {
    const address = clientAddress();
    const { pair } = sessionCookie(await login(address, adminToken));
    // What bull-board's "Log out" link, a prefetch or an <img> pointing at it would send.
    const page = await call('/logout', address, { headers: { ...HTML, cookie: pair } });
    expect(page.status).toBe(200);
    expect(page.headers.getSetCookie()).toEqual([]);
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self'");
    expect(await page.text()).toContain('<form method="post" action="/v1/admin/queues/logout">');

    const logout = await call('/logout', address, { method: 'POST', headers: { cookie: pair } });
    expect(logout.status).toBe(303);
    expect(logout.headers.get('location')).toBe('/v1/admin/queues/login');
    const cleared = sessionCookie(logout);
    expect(cleared.value).toBe('');
    expect(cleared.attributes).toContain('Path=/v1/admin/queues');
  });

  it('takes a form body only at the login and the logout: elsewhere 415, unread', async () => {
    const address = clientAddress();
    const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
    try {
      const paused = await call(`/api/queues/${INGEST_QUEUE}/pause`, address, {
        method: 'PUT',
        headers: { ...bearer(adminToken), ...FORM },
        body: 'force=true',
      });
      expect(paused.status).toBe(415);
      expect(await paused.json()).toEqual({
        error: 'Unsupported Media Type',
        message: 'Only the login and the logout take a form body',
        details: {
          content_type: 'application/x-www-form-urlencoded',
          hint: 'Send JSON (Content-Type: application/json)',
        },
      });
      expect(await onIngestQueue((queue) => queue.isPaused())).toBe(false);
    } finally {
      await onIngestQueue((queue) => queue.resume());
    }
    const loggedIn = await login(address, adminToken);
    expect(loggedIn.status).toBe(303);
    const { pair } = sessionCookie(loggedIn);
    const loggedOut = await call('/logout', address, {
      method: 'POST',
      headers: { cookie: pair, ...FORM },
      body: '',
    });
    expect(loggedOut.status).toBe(303);
    expect(sessionCookie(loggedOut).value).toBe('');
  });

  it('sets the cookie Secure when the request came over https through a trusted proxy', async () => {
    const address = clientAddress();
    const own = new URL(dashboard);
    const throughTls = { 'x-forwarded-proto': 'https' };
    const secure = await call('/login', address, {
      method: 'POST',
      // A browser behind the proxy names the https origin it is on.
      headers: { 'content-type': 'application/json', origin: `https://${own.host}`, ...throughTls },
      body: JSON.stringify({ token: adminToken }),
    });
    expect(secure.status).toBe(303);
    expect(sessionCookie(secure).attributes).toContain('Secure');
    // The origin the request reached is the proxy's https one: the plain http origin is not it.
    const downgraded = await call('/login', address, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: own.origin, ...throughTls },
      body: JSON.stringify({ token: adminToken }),
    });
    expect(downgraded.status).toBe(403);
    expect(await downgraded.json()).toMatchObject({
      details: { header: 'Origin', provided: own.origin, expected: `https://${own.host}` },
    });
    // Plain http: not Secure (the first login test shows it too).
    expect(sessionCookie(await login(address, adminToken)).attributes).not.toContain('Secure');

    // The same header from a client no TRUST_PROXY names is not believed.
    const untrusting = await startTestApp(environment.config({ TRUST_PROXY: 'false' }), {
      withWorker: false,
    });
    try {
      const forged = await fetch(`${new URL(untrusting.baseUrl).origin}/v1/admin/queues/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/json', ...throughTls },
        body: JSON.stringify({ token: adminToken }),
      });
      expect(forged.status).toBe(303);
      expect(sessionCookie(forged).attributes).not.toContain('Secure');
    } finally {
      await untrusting.close();
    }
  });

  it('is off without ADMIN_TOKEN, and its login page says so', async () => {
    const { ADMIN_TOKEN: _token, ...env } = environment.env;
    const off = await startTestApp(loadConfig(env), { withWorker: false });
    try {
      const origin = new URL(off.baseUrl).origin;
      const address = clientAddress();
      const get = (path: string, headers: Record<string, string> = {}) =>
        fetch(`${origin}/v1/admin/queues${path}`, {
          redirect: 'manual',
          headers: { 'x-forwarded-for': address, ...headers },
        });
      const page = await get('/', HTML);
      expect(page.status).toBe(302);
      expect(page.headers.get('location')).toMatch(/^\/v1\/admin\/queues\/login\?next=/);
      const form = await get('/login', HTML);
      expect(form.status).toBe(401);
      const html = await form.text();
      expect(html).toContain('The queue dashboard is disabled');
      expect(html).toContain('ADMIN_TOKEN');
      expect(html).not.toContain('type="password"');
      const queues = await get('/api/queues', bearer(adminToken));
      expect(queues.status).toBe(401);
      expect(await queues.json()).toEqual({
        error: 'Unauthorized',
        message: 'The queue dashboard is disabled',
        details: { hint: 'Set ADMIN_TOKEN to enable it' },
      });
    } finally {
      await off.close();
    }
  });
});

describe('the queue dashboard refuses changes from another site: 403, before authentication', () => {
  const EVIL = { origin: 'https://evil.example' };
  /** A way a browser says that a request comes from another site, and the details it gets. */
  type CrossSite = [headers: Record<string, string>, details: Record<string, unknown>];
  /** Each way (a function: the dashboard's address is known once the app runs). */
  const crossSite = (): CrossSite[] => {
    const expected = new URL(dashboard).origin;
    const fetchSite = (site: string): CrossSite => [
      { 'sec-fetch-site': site },
      { header: 'Sec-Fetch-Site', provided: site, valid_values: ['same-origin', 'none'] },
    ];
    return [
      [EVIL, { header: 'Origin', provided: EVIL.origin, expected }],
      [{ origin: 'null' }, { header: 'Origin', provided: 'null', expected }],
      fetchSite('cross-site'),
      fetchSite('same-site'),
    ];
  };

  async function expectCrossSiteRefusal(response: Response, details: Record<string, unknown>) {
    expect(response.status).toBe(403);
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(await response.json()).toEqual({
      error: 'Forbidden',
      message: 'The queue dashboard takes changes only from its own pages, not from another site',
      details: { code: 'CROSS_SITE_REQUEST', ...details },
    });
  }

  it('refuses a change with the session cookie whose Origin or Sec-Fetch-Site names another site', async () => {
    const address = clientAddress();
    const { pair } = sessionCookie(await login(address, adminToken));
    const change = (action: 'pause' | 'resume', headers: Record<string, string>) =>
      call(`/api/queues/${INGEST_QUEUE}/${action}`, address, {
        method: 'PUT',
        headers: { cookie: pair, ...headers },
      });
    try {
      for (const [headers, details] of crossSite()) {
        await expectCrossSiteRefusal(await change('pause', headers), details);
      }
      expect(await onIngestQueue((queue) => queue.isPaused())).toBe(false);
      // The dashboard's own pages send their origin: their changes go through.
      const own = { origin: new URL(dashboard).origin, 'sec-fetch-site': 'same-origin' };
      expect((await change('pause', own)).status).toBe(200);
      expect(await onIngestQueue((queue) => queue.isPaused())).toBe(true);
      expect((await change('resume', own)).status).toBe(200);
      expect(await onIngestQueue((queue) => queue.isPaused())).toBe(false);
    } finally {
      await onIngestQueue((queue) => queue.resume());
    }
  });

  it('refuses a login or a logout from another site: no session is set or cleared', async () => {
    const address = clientAddress();
    const { pair } = sessionCookie(await login(address, adminToken));
    for (const [headers, details] of crossSite()) {
      const form = new URLSearchParams({ token: adminToken }).toString();
      const forgedLogin = await call('/login', address, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: form,
      });
      await expectCrossSiteRefusal(forgedLogin, details);
      const forgedLogout = await call('/logout', address, {
        method: 'POST',
        headers: { cookie: pair, ...headers },
      });
      await expectCrossSiteRefusal(forgedLogout, details);
    }
  });

  it('refuses before the token is checked: wrong tokens from another site count no failure', async () => {
    const address = clientAddress();
    for (let attempt = 0; attempt <= FAILURES_ALLOWED; attempt += 1) {
      const forged = await call(`/api/queues/${INGEST_QUEUE}/pause`, address, {
        method: 'PUT',
        headers: { ...bearer(`${adminToken}x`), ...EVIL },
      });
      expect(forged.status).toBe(403);
      const forgedLogin = await call('/login', address, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...EVIL },
        body: JSON.stringify({ token: `${adminToken}x` }),
      });
      expect(forgedLogin.status).toBe(403);
    }
    // Past the limit, had they been counted, the right token would get 429.
    const queues = await call('/api/queues', address, { headers: bearer(adminToken) });
    expect(queues.status).toBe(200);
  });

  it('answers reads from another site: a GET or HEAD changes nothing', async () => {
    const address = clientAddress();
    const headers = { ...bearer(adminToken), ...EVIL, 'sec-fetch-site': 'cross-site' };
    expect((await call('/api/queues', address, { headers })).status).toBe(200);
    expect((await call('/api/queues', address, { method: 'HEAD', headers })).status).toBe(200);
    expect((await call('/login', address, { headers })).status).toBe(200);
  });
});

describe("the dashboard's JSON API: bad input gets a 400 in the service's error shape", () => {
  const address = clientAddress();
  const admin = (
    path: string,
    {
      headers = {},
      ...init
    }: Omit<RequestInit, 'headers'> & { headers?: Record<string, string> } = {},
  ) => call(path, address, { ...init, headers: { ...bearer(adminToken), ...headers } });
  const json = (method: string, body: string) => ({
    method,
    headers: { 'content-type': 'application/json' },
    body,
  });

  /** The documented general shape, and nothing of bull-board's own (`{"error": {"key"}}`). */
  async function expectGeneralError(response: Response, status: number, message: string) {
    expect(response.status).toBe(status);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ error: expect.any(String), message });
    expect(Object.keys(body).sort()).toEqual(
      body.details === undefined ? ['error', 'message'] : ['details', 'error', 'message'],
    );
    return body;
  }

  it.each([
    // bull-board parses its own validation message, which holds the value: NUL broke it (500).
    ['/api/queues?status=%00', 'status must not contain the NUL character'],
    ['/api/queues?activeQueue=ingest&status=a%00b', 'status must not contain the NUL character'],
    // It percent-decodes activeQueue a second time: a lone % threw (500).
    ['/api/queues?activeQueue=%25', 'Unknown queue: %'],
    ['/api/queues?activeQueue=nope', 'Unknown queue: nope'],
    ['/api/queues?status=bogus', 'Unknown status: bogus'],
    ['/api/queues?status=failed&status=completed', 'status may be given only once'],
    ['/api/queues?page=0', 'page must be an integer from 1 to 30023997515803'],
    ['/api/queues?page=abc', 'page must be an integer from 1 to 30023997515803'],
    // Past a safe integer, the offset failed BullMQ's script (500).
    [
      '/api/queues?activeQueue=ingest&jobsPerPage=99999999999999999999',
      'jobsPerPage must be an integer from 1 to 300',
    ],
    ['/api/queues?jobsPerPage=301', 'jobsPerPage must be an integer from 1 to 300'],
    ['/api/job-schedulers?queueName=nope', 'Unknown queue: nope'],
    [`/api/queues/${INGEST_QUEUE}/a%00b`, 'jobId must not contain the NUL character'],
    [`/api/queues/${INGEST_QUEUE}/x/flow?depth=%00`, 'depth must not contain the NUL character'],
    // The router decodes %61 as "a": this reached bull-board unchecked (its 500 came back).
    ['/%61pi/queues?status=%00', 'status must not contain the NUL character'],
  ])('GET %s', async (path, message) => {
    const body = await expectGeneralError(await admin(path), 400, message);
    expect(body.details).toMatchObject({ parameter: expect.any(String) });
  });

  it.each([
    // A status bull-board cannot clean was "cleaned" with a 200.
    ['PUT', `/api/queues/${INGEST_QUEUE}/clean/bogus`, 'Unknown status: bogus', undefined],
    [
      'PUT',
      `/api/queues/${INGEST_QUEUE}/retry/waiting`,
      '"waiting" is not a retriable status',
      undefined,
    ],
    // Every JSON body is checked as it is parsed (a NUL character is refused there).
    [
      'PUT',
      `/api/queues/${INGEST_QUEUE}/obliterate`,
      'The request body is invalid',
      JSON.stringify({ force: '\u0000' }),
    ],
    [
      'PUT',
      `/api/queues/${INGEST_QUEUE}/concurrency`,
      'concurrency must be a number from -9007199254740991 to 9007199254740991',
      '{"concurrency":1e300}',
    ],
    [
      'PUT',
      `/api/queues/${INGEST_QUEUE}/concurrency`,
      'Invalid concurrency value',
      '{"concurrency":"x"}',
    ],
    [
      'PUT',
      `/api/queues/${INGEST_QUEUE}/concurrency`,
      "Body is not valid JSON but content-type is set to 'application/json'",
      'not json',
    ],
    [
      'POST',
      `/api/queues/${INGEST_QUEUE}/add`,
      'The request body is invalid',
      JSON.stringify({ options: '\u0000' }),
    ],
    [
      'POST',
      `/api/queues/${INGEST_QUEUE}/add`,
      "The job's options were refused: Custom Id cannot contain :",
      '{"options":{"jobId":"a:b"}}',
    ],
    [
      'POST',
      `/api/queues/${INGEST_QUEUE}/add`,
      "The job's options were refused: BullMQ cannot store them",
      '{"options":{"delay":true}}',
    ],
  ])('%s %s: %s', async (method, path, message, body) => {
    const response = await admin(path, body === undefined ? { method } : json(method, body));
    await expectGeneralError(response, 400, message);
  });

  // Walked with recursion, a body nested 100,000 deep overflowed bull-board's stack (500).
  it('refuses a body nested deeper than 32 levels, and one over 64 KB unread', async () => {
    const nested = (depth: number) => `{"options":${'['.repeat(depth)}1${']'.repeat(depth)}}`;
    const deep = await admin(`/api/queues/${INGEST_QUEUE}/add`, json('POST', nested(32)));
    const { details } = await expectGeneralError(deep, 400, 'The request body is invalid');
    expect(details).toEqual({
      errors: [
        {
          field: `options${'.0'.repeat(31)}`,
          reasons: ['arrays and objects may nest at most 32 levels deep'],
        },
      ],
    });
    const huge = await admin(`/api/queues/${INGEST_QUEUE}/add`, json('POST', nested(100_000)));
    await expectGeneralError(huge, 413, 'Request body is too large');
  });

  it('answers an unknown queue or job with 404, and a job in the wrong state with 400', async () => {
    await expectGeneralError(await admin('/api/queues/nope/metrics'), 404, 'Queue not found');
    await expectGeneralError(await admin(`/api/queues/${INGEST_QUEUE}/nope`), 404, 'Job not found');
    const failed = await api.settled(await api.ingest([records.page('unpromoted.io')]));
    const jobId = failed.failures[0]?.job_id as string;
    // BullMQ refuses to promote a job that is not delayed: it threw, and that was a 500.
    await expectGeneralError(
      await admin(`/api/queues/${INGEST_QUEUE}/${jobId}/promote`, { method: 'PUT' }),
      400,
      `Job ${jobId} is not in the delayed state. promote`,
    );
  });
});

describe('the queue dashboard in a browser', () => {
  it('logs in, shows a failed ingest job, and retries it', async () => {
    // A page whose company is not known yet fails for good after INGEST_ATTEMPTS.
    const orphan = await api.ingest([records.page('orphan.io')]);
    const failed = await api.settled(orphan);
    expect(failed.counts.failed).toBe(1);
    const jobId = failed.failures[0]?.job_id as string;
    // Its company arrives: retrying the job now succeeds.
    expect((await api.settled(await api.ingest([records.company('orphan.io')]))).counts.done).toBe(
      1,
    );

    const browser = await launchBrowser();
    try {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      // The board asks Google for its fonts; tests stay off the network.
      await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort());
      const page = await context.newPage();
      const violations = cspViolations(page);
      await page.goto(`${dashboard}/queue/${INGEST_QUEUE}?status=failed`);
      expect(new URL(page.url()).pathname).toBe('/v1/admin/queues/login');

      await page.getByLabel('Admin token').fill(adminToken);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.waitForURL(`${dashboard}/queue/${INGEST_QUEUE}?status=failed`);
      const cookies = await context.cookies();
      expect(cookies.map((cookie) => cookie.name)).toEqual(['queue_dashboard_session']);
      expect(cookies[0]).toMatchObject({ httpOnly: true, sameSite: 'Strict' });

      const card = page
        .locator('[class*="card-"]')
        .filter({ has: page.getByRole('link', { name: jobId }) });
      // The error tab shows the reason once its highlighter has loaded.
      await card
        .locator('code')
        .filter({ hasText: 'company orphan.io is not known yet; gave up after 2 attempts' })
        .waitFor();
      expect(await card.innerText()).toContain('attempt #2');
      // Retry and clean are offered: the board is not read-only.
      await page.getByRole('button', { name: 'Retry all' }).waitFor();
      await page.getByRole('button', { name: 'Clean all' }).waitFor();
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: `${ARTIFACTS}queue-dashboard.png`, fullPage: true });

      // The job's actions are icon buttons named by their tooltips.
      const retry = card.locator('button:has(svg.lucide-refresh-cw)');
      await retry.hover();
      await page.locator('[data-base-ui-portal]').getByText('Retry', { exact: true }).waitFor();
      await retry.click();
      const confirm = page.getByRole('alertdialog');
      expect(await confirm.innerText()).toContain('Are you sure that you want to retry this job?');
      const retried = page.waitForResponse(
        (response) =>
          response.request().method() === 'PUT' &&
          new URL(response.url()).pathname ===
            `/v1/admin/queues/api/queues/${INGEST_QUEUE}/${jobId}/retry`,
      );
      await confirm.getByRole('button', { name: 'Confirm' }).click();
      expect((await retried).status()).toBe(204);

      // Log out is in the menu of the header's last button; its link opens the logout page.
      await page.locator('ul[class*="actions-"] > li').last().getByRole('button').click();
      await page.getByRole('menuitem', { name: 'Log out' }).click();
      await page.waitForURL(`${dashboard}/logout`);
      expect(await context.cookies()).toHaveLength(1);
      await page.getByRole('button', { name: 'Log out' }).click();
      await page.waitForURL(`${dashboard}/login`);
      expect(await context.cookies()).toEqual([]);
      // The security headers' Content-Security-Policy let the board load everything it uses.
      expect(violations).toEqual([]);
    } finally {
      await browser.close();
    }
    // The retried job ran again, now that its company is known, and the batch reports it done.
    const retriedBatch = await api.settled(orphan);
    expect(retriedBatch.counts).toMatchObject({ done: 1, failed: 0 });
    expect(await onIngestQueue((queue) => queue.getJobState(jobId))).toBe('completed');
  });
});
