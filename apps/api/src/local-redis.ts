import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createConnection } from 'node:net';
import { resolve } from 'node:path';

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** True when something on host:port answers a Redis PING within the timeout. */
export function redisAnswers(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((done) => {
    const socket = createConnection({ host, port });
    const finish = (answered: boolean) => {
      socket.destroy();
      done(answered);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => finish(data.toString().startsWith('+PONG')));
  });
}

const NO_REDIS_HELP = `No Redis answers on 127.0.0.1:6379 and there is no redis-server on PATH.
Any one of these will do:
  - install it: apt-get install redis-server (Debian/Ubuntu), brew install redis (macOS)
  - run it in Docker: docker run -d -p 6379:6379 redis:7
  - point the service at one: REDIS_URL=redis://host:6379 npm start`;

/**
 * For a newcomer's first start: when no Redis answers on the default address, runs
 * `redis-server` as a child with its data (append-only file) under `dataDir`.
 */
export async function startLocalRedisIfNeeded(dataDir: string): Promise<ChildProcess | null> {
  if (await redisAnswers('127.0.0.1', 6379)) return null;
  mkdirSync(dataDir, { recursive: true });
  const child = spawn(
    'redis-server',
    [
      '--port',
      '6379',
      '--bind',
      '127.0.0.1',
      '--dir',
      resolve(dataDir),
      '--appendonly',
      'yes',
      '--save',
      '',
    ],
    { stdio: 'ignore' },
  );
  const spawned = await new Promise<boolean>((done) => {
    child.once('spawn', () => done(true));
    child.once('error', () => done(false));
  });
  if (!spawned) throw new Error(NO_REDIS_HELP);
  for (let waited = 0; waited < 10_000; waited += 100) {
    if (await redisAnswers('127.0.0.1', 6379)) return child;
    await new Promise((next) => setTimeout(next, 100));
  }
  child.kill();
  throw new Error('redis-server was started but does not answer on 127.0.0.1:6379');
}
