import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './free-port.js';
import { waitFor } from './wait-for.js';

/**
 * A Redis of one test file's own (`redis-server` from PATH), which the file may stop and start
 * again on the same port without disturbing other files. By default nothing is on disk, so a
 * restart empties it; with `appendOnly` it keeps an append-only file, fsynced before each
 * write is answered, in a directory of its own, and a restart brings back every acknowledged
 * write (as production's Redis must).
 */
export class OwnRedis {
  private child: ChildProcess | null = null;

  private constructor(
    readonly port: number,
    private readonly password: string | null,
    private readonly directory: string | null,
  ) {}

  static async create(
    password: string | null = null,
    { appendOnly = false }: { appendOnly?: boolean } = {},
  ): Promise<OwnRedis> {
    const directory = appendOnly ? mkdtempSync(join(tmpdir(), 'pricing-redis-')) : null;
    return new OwnRedis(await freePort(), password, directory);
  }

  get url(): string {
    const auth = this.password === null ? '' : `:${encodeURIComponent(this.password)}@`;
    return `redis://${auth}127.0.0.1:${this.port}`;
  }

  /** Starts it (again, on the same port); a no-op while it runs. */
  async start(): Promise<void> {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) return;
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', ''];
    if (this.directory) {
      args.push('--dir', this.directory, '--appendonly', 'yes', '--appendfsync', 'always');
    } else args.push('--appendonly', 'no');
    if (this.password !== null) args.push('--requirepass', this.password);
    this.child = spawn('redis-server', args, { stdio: 'ignore' });
    await waitFor('redis to answer', () =>
      onOneConnection(this.url, async (client) =>
        (await client.ping()) === 'PONG' ? true : undefined,
      ),
    );
  }

  /**
   * SIGSTOP: it holds what it has but answers nothing, as a Redis cut off by the network would;
   * resume() lets it go on.
   */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  resume(): void {
    this.child?.kill('SIGCONT');
  }

  /** SIGKILL: an outage, not a clean shutdown. */
  async stop(): Promise<void> {
    const stopping = this.child;
    this.child = null;
    if (!stopping || stopping.exitCode !== null) return;
    const exited = new Promise((done) => stopping.once('exit', done));
    stopping.kill('SIGKILL');
    await exited;
  }

  /** Stops it and deletes its files. */
  async remove(): Promise<void> {
    await this.stop();
    if (this.directory) rmSync(this.directory, { recursive: true, force: true });
  }
}

/**
 * Runs `work` on a connection of its own to `url` that gives up at once instead of retrying
 * (a server that is not there fails the call), and closes it.
 */
export async function onOneConnection<T>(
  url: string,
  work: (client: Redis) => Promise<T>,
): Promise<T> {
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await work(client);
  } finally {
    client.disconnect();
  }
}
