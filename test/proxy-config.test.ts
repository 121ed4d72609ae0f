import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './support/free-port.js';
import { parsePrometheusText } from './support/prometheus-text.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';
import { waitFor } from './support/wait-for.js';

/*
 * docker/haproxy.cfg, run by the machine's HAProxy in front of a real API process: from outside,
 * the public paths reach the API and the operator endpoints do not, while HAProxy's own health
 * checks still do. And the file, the operators' guide and the API agree: the paths the operators' guide says are
 * forwarded are those the file forwards, and every route the API serves is either one of them
 * or an operator endpoint the operators' guide says is refused.
 */

const CONFIG = readFileSync('docker/haproxy.cfg', 'utf8');
const GUIDE = readFileSync('docs/operators.md', 'utf8');
/** The first cell of the header of the operators' guide's table of what the proxy does with each path. */
const GUIDE_TABLE_HEADER = 'path (from outside)';

/** HAProxy from PATH, or where Debian puts it (/usr/sbin, not on every user's PATH). */
const HAPROXY = ['haproxy', '/usr/sbin/haproxy'].find(
  (command) => spawnSync(command, ['-v'], { stdio: 'ignore' }).status === 0,
);
const unavailable =
  HAPROXY === undefined
    ? 'haproxy is not installed (on Debian: apt-get install haproxy; .ci/run installs it)'
    : null;
if (unavailable) console.info(`proxy-config.test.ts: the proxy's own run skipped: ${unavailable}`);

/**
 * The paths the proxy forwards, as its `public_path` ACL names them, written as the guide writes
 * them: `/x` for that path alone, `/x/*` for every path under `/x/`.
 */
function forwardedByConfig(): string[] {
  return CONFIG.split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([keyword, name]) => keyword === 'acl' && name === 'public_path')
    .flatMap(([, , match, ...paths]) => {
      if (match === 'path') return paths;
      if (match === 'path_beg' && paths.every((path) => path.endsWith('/'))) {
        return paths.map((path) => `${path}*`);
      }
      throw new Error(`public_path: a match the test cannot read: ${match} ${paths.join(' ')}`);
    });
}

/** The guide's table: the paths of its rows that say "forwarded", and of those that say "refused". */
function guideTable(): { forwarded: string[]; refused: string[] } {
  const lines = GUIDE.split('\n');
  const header = lines.findIndex((line) => line.split('|')[1]?.trim() === GUIDE_TABLE_HEADER);
  if (header < 0) throw new Error(`docs/operators.md has no table headed "${GUIDE_TABLE_HEADER}"`);
  const table = { forwarded: [] as string[], refused: [] as string[] };
  // After the header and its delimiter row, up to the first line that is not a row.
  for (const row of lines.slice(header + 2)) {
    if (!row.startsWith('|')) break;
    const [paths = '', answer = ''] = row.split('|').slice(1);
    const named = [...paths.matchAll(/`(\/[^`]*)`/g)].map((found) => found[1]!);
    const verdict = /^\s*(forwarded|refused)\b/.exec(answer)?.[1] as keyof typeof table;
    if (named.length > 0) table[verdict].push(...named);
  }
  return table;
}

function isForwarded(path: string, forwarded: string[]): boolean {
  return forwarded.some((pattern) =>
    pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : path === pattern,
  );
}

/** Every path the app has a route for, read from the tree Fastify prints (4 columns a level). */
function servedPaths(api: TestApp): string[] {
  const tree = api.app.getHttpAdapter().getInstance().printRoutes({ commonPrefix: false });
  const pathAtDepth: string[] = [];
  const paths: string[] = [];
  for (const line of tree.split('\n')) {
    const node = /^(.*?)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (!node) continue;
    const depth = node[1]!.length / 4;
    pathAtDepth[depth] = (depth === 0 ? '' : pathAtDepth[depth - 1]) + node[2];
    if (node[3]) paths.push(pathAtDepth[depth]!);
  }
  return paths;
}

/**
 * docker/haproxy.cfg for this machine: one server at the API's port instead of the containers
 * that Docker's DNS names (the resolvers section goes too), and a free local port to listen on.
 * Everything else as shipped; each replaced text must be found exactly once.
 */
function localConfig(proxyPort: number, apiPort: number): string {
  const replacements: [RegExp, string][] = [
    [/^resolvers docker\n(?:[ \t]+\S.*\n)*/gm, ''],
    [/ resolvers docker init-addr none$/gm, ''],
    [/^([ \t]*)server-template api- \d+ api:3000$/gm, `$1server api-1 127.0.0.1:${apiPort}`],
    [/^([ \t]*)bind :8080$/gm, `$1bind 127.0.0.1:${proxyPort}`],
  ];
  return replacements.reduce((config, [pattern, replacement]) => {
    expect(config.match(pattern), String(pattern)).toHaveLength(1);
    return config.replace(pattern, replacement);
  }, CONFIG);
}

interface RawAnswer {
  status: number;
  /** The API marks every answer with its request id; HAProxy's own answers carry none. */
  fromApi: boolean;
  body: string;
}

/**
 * One GET written on a socket as it is, so that any target a client may send is sent (fetch and
 * Node's client cannot send an absolute-form one, `GET http://host/path`).
 */
function rawGet(port: number, target: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(`GET ${target} HTTP/1.1\r\nHost: pricing.test\r\nConnection: close\r\n\r\n`),
    );
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]),
        fromApi: /^x-request-id:/im.test(head),
        body,
      });
    });
    socket.on('error', reject);
  });
}

const environment = testEnvironment();
let api: TestApp;
let apiOrigin: string;

beforeAll(async () => {
  api = await startTestApp(environment.config());
  apiOrigin = new URL(api.baseUrl).origin;
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

describe("docker/haproxy.cfg, the operators' guide and the API agree", () => {
  it("the operators' guide names as forwarded exactly the paths the proxy forwards", () => {
    const forwarded = forwardedByConfig();
    expect(forwarded.length).toBeGreaterThan(0);
    expect([...guideTable().forwarded].sort()).toEqual([...forwarded].sort());
  });

  it("every route of the API is forwarded or is an operator endpoint the operators' guide says is refused", () => {
    const forwarded = forwardedByConfig();
    const { refused } = guideTable();
    expect(refused.sort()).toEqual(['/health/live', '/health/ready', '/metrics']);
    for (const path of refused) expect(isForwarded(path, forwarded), path).toBe(false);
    const served = servedPaths(api);
    // The tree was read: routes of each kind are there.
    expect(served).toEqual(
      expect.arrayContaining(['/', '/v1/api/companies/:slug', '/mcp', '/explorer', '/metrics']),
    );
    const neither = served.filter(
      (path) => !isForwarded(path, forwarded) && !refused.includes(path),
    );
    expect(neither, 'routes the proxy neither forwards nor is said to refuse').toEqual([]);
  });
});

describe.skipIf(unavailable !== null)('docker/haproxy.cfg run by HAProxy', () => {
  let directory: string;
  let proxy: ChildProcess;
  let proxyOrigin: string;
  let proxyPort: number;
  let proxyOutput = '';

  beforeAll(async () => {
    proxyPort = await freePort();
    proxyOrigin = `http://127.0.0.1:${proxyPort}`;
    directory = mkdtempSync(join(tmpdir(), 'pricing-haproxy-'));
    const configFile = join(directory, 'haproxy.cfg');
    writeFileSync(configFile, localConfig(proxyPort, Number(new URL(apiOrigin).port)));
    const check = spawnSync(HAPROXY!, ['-c', '-f', configFile], { encoding: 'utf8' });
    expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
    // -db: in the foreground, its log on stdout (kept for a failure's message).
    proxy = spawn(HAPROXY!, ['-db', '-f', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [proxy.stdout!, proxy.stderr!]) {
      stream.setEncoding('utf8').on('data', (chunk: string) => (proxyOutput += chunk));
    }
    await waitFor(
      'the proxy to forward to the API',
      async () => ((await rawGet(proxyPort, '/v1')).fromApi ? true : undefined),
      30_000,
      100,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\nHAProxy said:\n${proxyOutput}`);
    });
  });

  afterAll(async () => {
    if (proxy && proxy.exitCode === null) {
      const exited = new Promise((done) => proxy.once('exit', done));
      proxy.kill('SIGTERM');
      await exited;
    }
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  it('refuses the operator endpoints from outside, however spelt, while its health checks reach them', async () => {
    const apiPort = Number(new URL(apiOrigin).port);
    const checksAnswered = async () => {
      const metrics = parsePrometheusText(await (await fetch(`${apiOrigin}/metrics`)).text());
      return metrics.series('http_requests_total', { route: '/health/ready', method: 'GET' });
    };
    const answeredOk = async () =>
      (await checksAnswered()).find((sample) => sample.labels.status === '200')?.value ?? 0;
    // HAProxy checks every 2 s; nothing else asks for /health/ready until the requests below.
    const before = await answeredOk();
    await waitFor('two more health checks', async () =>
      (await answeredOk()) >= before + 2 ? true : undefined,
    );
    expect((await checksAnswered()).map((sample) => sample.labels.status)).toEqual(['200']);

    const { refused } = guideTable();
    // Spellings the API's router decodes to an operator endpoint, and the absolute form.
    const spellings = [
      ...refused,
      '/%6detrics',
      '/health/%72eady',
      '/metrics?format=text',
      'http://pricing.test/metrics',
    ];
    for (const target of spellings) {
      const direct = await rawGet(apiPort, target);
      expect(direct.status, `${target} on the API's own port`).toBe(200);
      const outside = await rawGet(proxyPort, target);
      expect({ target, status: outside.status, fromApi: outside.fromApi }).toEqual({
        target,
        status: 404,
        fromApi: false,
      });
      expect(JSON.parse(outside.body)).toEqual({ error: 'Not Found', message: 'No such route' });
    }
  });

  it('forwards every public path to the API', async () => {
    const answers = new Map<string, Response>();
    const through = async (path: string, init?: RequestInit) => {
      const response = await fetch(`${proxyOrigin}${path}`, init);
      expect(response.headers.has('x-request-id'), `${path} answered by the API`).toBe(true);
      answers.set(`${init?.method ?? 'GET'} ${path}`, response);
      return response;
    };
    const key = await api.createKey(['read']);
    const statuses = {
      '/': (await through('/')).status,
      '/v1': (await through('/v1')).status,
      '/v1/api/openapi.json': (await through('/v1/api/openapi.json')).status,
      '/v1/docs': (await through('/v1/docs')).status,
      '/v1/admin/keys (no token)': (await through('/v1/admin/keys')).status,
      '/v1/api/companies (a key)': (
        await through('/v1/api/companies', { headers: { authorization: `Bearer ${key}` } })
      ).status,
      '/explorer': (await through('/explorer')).status,
      '/explorer/assets/explorer.js': (await through('/explorer/assets/explorer.js')).status,
      '/favicon.ico': (await through('/favicon.ico')).status,
      'POST /mcp (no key)': (
        await through('/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
        })
      ).status,
    };
    expect(statuses).toEqual({
      '/': 200,
      '/v1': 200,
      '/v1/api/openapi.json': 200,
      '/v1/docs': 200,
      '/v1/admin/keys (no token)': 401,
      '/v1/api/companies (a key)': 200,
      '/explorer': 200,
      '/explorer/assets/explorer.js': 200,
      '/favicon.ico': 204,
      'POST /mcp (no key)': 401,
    });
    // The MCP refusal is the API's, in its general error shape.
    await expect(answers.get('POST /mcp')!.json()).resolves.toMatchObject({
      error: 'Unauthorized',
    });
    for (const response of answers.values()) if (!response.bodyUsed) await response.body?.cancel();

    // Each path the operators' guide says is forwarded reaches the API (under a prefix, an unknown route
    // gets the API's own 404).
    for (const path of guideTable().forwarded) {
      const answer = await rawGet(proxyPort, path.replace('*', 'no-such-route'));
      expect(answer.fromApi, path).toBe(true);
    }
  });
});
