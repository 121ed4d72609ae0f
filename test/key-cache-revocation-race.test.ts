import { once } from 'node:events';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiReady,
  showOutputOnFailure,
  startApiProcess,
  stopApiProcess,
  type ApiProcess,
} from './support/api-process.js';
import { testEnvironment } from './support/test-environment.js';

/**
 * A key lookup that is in flight while the key is revoked must not put the key back in the
 * process's key cache. Process B reaches PostgreSQL through a proxy that can hold back the
 * server's answers: B reads the key (still active) from the database, the key is revoked
 * through process A and the announcement reaches B, and only then does B receive the row
 * it read. B must still refuse the key a second later (docs/API.md, "Authentication").
 *
 * PostgreSQL only: better-sqlite3 reads synchronously, so no announcement can arrive between
 * the read and the caching there.
 */

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

const processes: ApiProcess[] = [];
let proxy: DelayingProxy | null = null;
let a: ApiProcess;
let b: ApiProcess;

async function startApi(name: string, env: Record<string, string>): Promise<ApiProcess> {
  const api = await startApiProcess(name, { ...environment.env, ...env });
  processes.push(api);
  return api;
}

beforeAll(async () => {
  if (!postgres) return;
  a = await startApi('api A', {});
  await apiReady(a);
  const database = new URL(environment.env.DATABASE_URL!);
  proxy = new DelayingProxy(database.hostname, Number(database.port || 5432));
  database.port = String(await proxy.listen());
  b = await startApi('api B', { DATABASE_URL: database.toString() });
  await apiReady(b);
}, 120_000);

afterAll(async () => {
  await Promise.all(processes.map(stopApiProcess));
  await proxy?.close();
  await environment.cleanup();
}, 60_000);

const usage = (api: ApiProcess, key: string) =>
  fetch(`${api.baseUrl}/api/usage`, { headers: { authorization: `Bearer ${key}` } });

describe.runIf(postgres)('a key revoked while a process is looking it up', () => {
  it('is refused by that process once the revocation has been announced', async () => {
    showOutputOnFailure(processes);
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
