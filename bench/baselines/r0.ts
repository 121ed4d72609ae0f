/**
 * R0, the floor of a counted read: bare Fastify that runs one Lua script on Redis (count the
 * request in an hourly window and in the month's credits, as the service must for every read)
 * and answers a fixed JSON body as long as the service's answer. No key check, no database, no
 * Nest: what is left between R0 and the service is the service's own work.
 *
 * Run as its own process (`startR0`), so that its CPU and memory are apart from the load
 * generator's, with PORT, BODY_BYTES, REDIS_URL and KEY_NAMESPACE in its environment.
 */
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { startService, type ServiceProcess } from '../support/service.js';

const HOUR_MS = 3_600_000;

/** INCR then PEXPIRE(AT) on first use, for the hourly window and the month's credits. */
const COUNT_SCRIPT = `
local hour = redis.call('INCR', KEYS[1])
if hour == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local month = redis.call('INCR', KEYS[2])
if month == 1 then redis.call('PEXPIREAT', KEYS[2], ARGV[2]) end
return {hour, month}
`;

export interface BaselineOptions {
  bodyBytes: number;
  redisUrl: string;
  /** Prefix of the Redis keys it counts in, so the scenario's cleanup removes them. */
  keyNamespace: string;
}

export function startR0(options: BaselineOptions): Promise<ServiceProcess> {
  return startService('r0', baselineEnv(options), 'R0');
}

export function baselineEnv(options: BaselineOptions): Record<string, string> {
  return {
    BODY_BYTES: String(options.bodyBytes),
    REDIS_URL: options.redisUrl,
    KEY_NAMESPACE: options.keyNamespace,
  };
}

/** A JSON document of exactly `bytes` bytes (at least 12). */
export function fixedBody(bytes: number): string {
  const frame = '{"data":""}';
  return `{"data":"${'x'.repeat(Math.max(1, bytes - frame.length))}"}`;
}

/**
 * The baseline server: every GET is counted on Redis, then `beforeAnswer` (R1's query), then
 * answered with the fixed body.
 */
export async function baselineServer(
  beforeAnswer: () => Promise<unknown> = async () => undefined,
): Promise<FastifyInstance> {
  const body = fixedBody(Number(process.env.BODY_BYTES));
  const namespace = process.env.KEY_NAMESPACE ?? 'bench-baseline';
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const sha = (await redis.script('LOAD', COUNT_SCRIPT)) as string;
  const keys = [`${namespace}:baseline:{bench}:hour`, `${namespace}:baseline:{bench}:credits`];
  const app = Fastify({ logger: false });
  app.get('/health/live', async () => ({ status: 'ok' }));
  app.get('/*', async (_request, reply) => {
    const now = new Date();
    const nextMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    await redis.evalsha(sha, keys.length, ...keys, HOUR_MS, nextMonth);
    await beforeAnswer();
    return reply.type('application/json; charset=utf-8').send(body);
  });
  app.addHook('onClose', async () => {
    await redis.quit();
  });
  return app;
}

/** Listens on PORT until SIGTERM. */
export async function serveBaseline(app: FastifyInstance): Promise<void> {
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await serveBaseline(await baselineServer());
}
