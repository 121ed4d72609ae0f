/**
 * What counting costs a request: RequestMeter's Redis scripts against a bare round trip, on
 * the local Redis (REDIS_URL, else redis://127.0.0.1:6379). Prints figures; asserts nothing.
 *
 *   npm run bench:metering            (compiles with bench/tsconfig.json, then runs)
 *   BENCH_ITERATIONS=20000 BENCH_CONCURRENCY=100 npm run bench:metering
 *
 * Every run meters a fresh random key id under its own key namespace, and deletes those keys
 * at the end.
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { AccessRedis, RequestMeter, type ChargeTicket } from '#app/access';
import { loadConfig, type PlanDefinition } from '#app/config';

const ITERATIONS = positiveInteger('BENCH_ITERATIONS', 5_000);
const WARM_UP = Math.min(1_000, ITERATIONS);
const CONCURRENCY = positiveInteger('BENCH_CONCURRENCY', 50);
const THROUGHPUT_CALLS = positiveInteger('BENCH_THROUGHPUT_CALLS', 20_000);

function positiveInteger(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

/** Limits nothing reaches, so every call is admitted and counted. */
const PLAN: PlanDefinition = {
  name: 'bench',
  requestsPerHour: 1_000_000_000,
  creditsPerMonth: 1_000_000_000,
  features: ['companies', 'pages', 'files', 'pricing'],
};

interface Latencies {
  name: string;
  calls: number;
  p50: number;
  p99: number;
  mean: number;
}

/** Runs `operation` `calls` times one after another; each call's duration in microseconds. */
async function sequential(
  name: string,
  calls: number,
  operation: () => Promise<unknown>,
): Promise<Latencies> {
  for (let index = 0; index < WARM_UP; index += 1) await operation();
  const micros = new Float64Array(calls);
  for (let index = 0; index < calls; index += 1) {
    const start = process.hrtime.bigint();
    await operation();
    micros[index] = Number(process.hrtime.bigint() - start) / 1_000;
  }
  micros.sort();
  const at = (quantile: number) => micros[Math.min(calls - 1, Math.ceil(quantile * calls) - 1)]!;
  const mean = micros.reduce((sum, value) => sum + value, 0) / calls;
  return { name, calls, p50: at(0.5), p99: at(0.99), mean };
}

/** `calls` operations with `inFlight` outstanding at any time; calls per second. */
async function throughput(
  calls: number,
  inFlight: number,
  operation: () => Promise<unknown>,
): Promise<number> {
  let started = 0;
  const lane = async () => {
    while (started < calls) {
      started += 1;
      await operation();
    }
  };
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({ length: inFlight }, lane));
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return calls / seconds;
}

const micros = (value: number) => value.toFixed(1).padStart(9);

async function main(): Promise<void> {
  const namespace = `bench-${randomUUID().slice(0, 8)}`;
  const config = loadConfig({
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    QUEUE_PREFIX: namespace,
    // The highest the configuration allows: nothing is refused.
    BURST_LIMIT_PER_SECOND: '100000',
    LOG_LEVEL: 'warn',
  });
  const redis = new AccessRedis(config);
  const meter = new RequestMeter(redis, config);
  const keyId = randomUUID();
  const connection = redis.connection;

  try {
    await connection.connect();
    const [server] = (await connection.info('server'))
      .split('\n')
      .filter((line) => line.startsWith('redis_version:'));
    console.log(
      `metering benchmark: Redis ${server?.split(':')[1]?.trim()} at ${config.redis.url}, ` +
        `node ${process.version}, key ${keyId}`,
    );
    console.log(
      `${ITERATIONS} sequential calls after ${WARM_UP} warm-up; throughput: ` +
        `${THROUGHPUT_CALLS} calls, ${CONCURRENCY} in flight\n`,
    );

    const charge = async () => {
      const { reading, ticket } = await meter.meter(keyId, PLAN, 'charge');
      if (reading.outcome !== 'ok' || !ticket) throw new Error(`refused: ${reading.outcome}`);
      return ticket;
    };
    const refund = (ticket: ChargeTicket) => meter.refund(ticket);

    const rows: Latencies[] = [
      await sequential('bare PING round trip', ITERATIONS, () => connection.ping()),
      await sequential("meter(…, 'charge')", ITERATIONS, charge),
      await sequential("meter(…, 'uncharged')", ITERATIONS, () =>
        meter.meter(keyId, PLAN, 'uncharged'),
      ),
      await sequential('charge + refund (non-2xx answer)', ITERATIONS, async () =>
        refund(await charge()),
      ),
    ];
    const pingRate = await throughput(THROUGHPUT_CALLS, CONCURRENCY, () => connection.ping());
    const chargeRate = await throughput(THROUGHPUT_CALLS, CONCURRENCY, charge);

    console.log(
      `${'operation'.padEnd(38)} ${'p50 µs'.padStart(9)} ${'p99 µs'.padStart(9)} ${'mean µs'.padStart(9)}`,
    );
    for (const row of rows) {
      console.log(
        `${row.name.padEnd(38)} ${micros(row.p50)} ${micros(row.p99)} ${micros(row.mean)}`,
      );
    }
    console.log('');
    console.log(`${'throughput'.padEnd(38)} ${'calls/s'.padStart(9)}`);
    console.log(
      `${`PING, ${CONCURRENCY} in flight`.padEnd(38)} ${pingRate.toFixed(0).padStart(9)}`,
    );
    console.log(
      `${`charge, ${CONCURRENCY} in flight`.padEnd(38)} ${chargeRate.toFixed(0).padStart(9)}`,
    );

    const [ping, charged, , refunded] = rows as [Latencies, Latencies, Latencies, Latencies];
    const used = await meter.meter(keyId, PLAN, 'read');
    console.log('');
    console.log(
      `counting adds ${charged.p50.toFixed(0)} µs (p50) to a request: one round trip, of which ` +
        `~${(charged.p50 - ping.p50).toFixed(0)} µs is the script beyond a bare PING ` +
        `(${ping.p50.toFixed(0)} µs); a non-2xx answer's refund adds ` +
        `~${(refunded.p50 - charged.p50).toFixed(0)} µs more`,
    );
    console.log(
      `(the key ends with ${used.reading.credits.used} credits used, hourly count ` +
        `${used.reading.hourly.used})`,
    );
  } finally {
    await deleteKeys(redis, `${namespace}:*`);
    await redis.onApplicationShutdown();
  }
}

async function deleteKeys(redis: AccessRedis, pattern: string): Promise<void> {
  for (let cursor = '0'; ;) {
    const [next, keys] = await redis.connection.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    if (keys.length > 0) await redis.connection.del(...keys);
    cursor = next;
    if (cursor === '0') return;
  }
}

main().catch((error: Error) => {
  console.error(error);
  process.exitCode = 1;
});
