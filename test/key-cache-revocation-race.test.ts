import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { testEnvironment } from './support/test-environment.js';
import { waitFor } from './support/wait-for.js';

/**
 * A key lookup that is in flight while the key is revoked must not put the key back in the
 * process's key cache. Process B reaches PostgreSQL through a proxy that can hold back the
 * server's answers: B reads the key (still active) from the database, the key is revoked
 * through process A and the announcement reaches B, and only then does B receive the row
 * it read. B must still refuse the key a second later (contract section 3).
 *
 * PostgreSQL only: better-sqlite3 reads synchronously, so no announcement can arrive between
 * the read and the caching there.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const environment = testEnvironment({ API_KEY_CACHE_SECONDS: '300' });
const adminToken = environment.env.ADMIN_TOKEN!;
const postgres = environment.dialect === 'postgres';

/** A TCP proxy to PostgreSQL that delays what the server sends by `delayMs`. */
class DelayingProxy {
  delayMs = 0;
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {
    this.server = createServer((client) => {
      const upstream = createConnection(this.targetPort, this.targetHost);
      this.sockets.add(client).add(upstream);
      let sending = Promise.resolve();
      client.on('data', (chunk) => upstream.write(chunk));
      upstream.on('data', (chunk) => {
        const delay = this.delayMs;
        sending = sending
          .then(() => new Promise((resolve) => setTimeout(resolve, delay)))
          .then(() => void client.write(chunk));
      });
      const close = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('close', close).on('error', close);
      upstream.on('close', close).on('error', close);
    });
  }

  async listen(): Promise<number> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return (this.server.address() as { port: number }).port;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

interface ApiProcess {
  name: string;
  baseUrl: string;
  child: ChildProcess;
  output: string;
  exit: Promise<unknown>;
}

const processes: ApiProcess[] = [];
let proxy: DelayingProxy | null = null;
let a: ApiProcess;
let b: ApiProcess;

function startApi(name: string, env: Record<string, string>): ApiProcess {
  const port = 30_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(process.execPath, ['dist/apps/api/src/main.js'], {
    cwd: ROOT,
    env: { ...process.env, ...environment.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const api = {
    name,
    baseUrl: `http://127.0.0.1:${port}/v1`,
    child,
    output: '',
    exit: once(child, 'exit'),
  };
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (api.output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (api.output += chunk));
  processes.push(api);
  return api;
}

const running = (api: ApiProcess) => api.child.exitCode === null && api.child.signalCode === null;

async function ready(api: ApiProcess): Promise<void> {
  await waitFor(
    `${api.name} to answer`,
    async () => {
      if (!running(api)) throw new Error(`${api.name} exited:\n${api.output.slice(-4000)}`);
      const response = await fetch(`${api.baseUrl}/api/openapi.json`);
      await response.arrayBuffer();
      return response.status === 200 ? true : undefined;
    },
    60_000,
    100,
  );
}

async function stop(api: ApiProcess): Promise<void> {
  if (!running(api)) return;
  api.child.kill('SIGTERM');
  const timer = setTimeout(() => api.child.kill('SIGKILL'), 10_000);
  await api.exit;
  clearTimeout(timer);
}

beforeAll(async () => {
  if (!postgres) return;
  a = startApi('api A', {});
  await ready(a);
  const database = new URL(environment.env.DATABASE_URL!);
  proxy = new DelayingProxy(database.hostname, Number(database.port || 5432));
  database.port = String(await proxy.listen());
  b = startApi('api B', { DATABASE_URL: database.toString() });
  await ready(b);
}, 120_000);

afterAll(async () => {
  await Promise.all(processes.map(stop));
  await proxy?.close();
  await environment.cleanup();
}, 60_000);

const usage = (api: ApiProcess, key: string) =>
  fetch(`${api.baseUrl}/api/usage`, { headers: { authorization: `Bearer ${key}` } });

describe.runIf(postgres)('a key revoked while a process is looking it up', () => {
  it('is refused by that process once the revocation has been announced', async () => {
    onTestFailed(() => {
      for (const api of processes) console.error(`--- ${api.name}\n${api.output.slice(-4000)}`);
    });
    const created = await fetch(`${a.baseUrl}/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'revoked mid-lookup', plan: 'free', scopes: ['read'] }),
    });
    const { id, key } = (await created.json()) as { id: string; key: string };

    // B's first use of the key: the database answers at once, B hears it 600 ms later.
    proxy!.delayMs = 600;
    const inFlight = usage(b, key);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const revoked = await fetch(`${a.baseUrl}/admin/keys/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(revoked.status).toBe(204);
    const revokedAt = Date.now();
    // Begun before the revocation, this one may be served.
    await (await inFlight).arrayBuffer();
    proxy!.delayMs = 0;

    // A second after the revocation, B must refuse the key.
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, revokedAt + 1_000 - Date.now())),
    );
    expect((await usage(a, key)).status).toBe(401);
    // Fails: B put the row it read before the revocation into its cache after the announcement,
    // and serves the revoked key until the cache entry ends (API_KEY_CACHE_SECONDS).
    expect((await usage(b, key)).status).toBe(401);
  });
});
