import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from './free-port.js';
import { waitFor } from './wait-for.js';

/**
 * A Redis of one test file's own (`redis-server` from PATH, nothing on disk), which the file
 * may stop and start again on the same port without disturbing other files.
 */
export class OwnRedis {
  private child: ChildProcess | null = null;

  private constructor(
    readonly port: number,
    private readonly password: string | null,
  ) {}

  static async create(password: string | null = null): Promise<OwnRedis> {
    return new OwnRedis(await freePort(), password);
  }

  get url(): string {
    const auth = this.password === null ? '' : `:${encodeURIComponent(this.password)}@`;
    return `redis://${auth}127.0.0.1:${this.port}`;
  }

  /** Starts it (again, on the same port); a no-op while it runs. */
  async start(): Promise<void> {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) return;
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', ''];
    args.push('--appendonly', 'no');
    if (this.password !== null) args.push('--requirepass', this.password);
    this.child = spawn('redis-server', args, { stdio: 'ignore' });
    await waitFor('redis to answer', async () => {
      const client = new Redis(this.url, {
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      client.on('error', () => undefined);
      try {
        await client.connect();
        return (await client.ping()) === 'PONG' ? true : undefined;
      } finally {
        client.disconnect();
      }
    });
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
}
