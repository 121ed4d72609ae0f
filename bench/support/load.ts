/**
 * HTTP load for the read scenarios: autocannon for throughput, and an open-loop probe for
 * latency at a fixed rate.
 *
 * Two runs because one cannot give both figures: 50 connections that always have a request in
 * flight measure the most a server answers, but then each request waits behind the others, so
 * the latency is connections / throughput by construction (Little's law), not the server's.
 * The probe sends at a steady rate below that maximum and times each request from the moment it
 * was due, so a stalled server shows as latency instead of as fewer requests sent.
 */
import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { processCpuSeconds, redisCpuSeconds } from './cpu.js';
import {
  againstBaseline,
  atMostBaseline,
  type BenchContext,
  type Measurement,
} from './scenario.js';
import type { ServiceProcess } from './service.js';

/** One request of the rotation: a path (with its query) under the origin, and its own headers. */
export interface RequestVariant {
  path: string;
  headers?: Record<string, string>;
}

export interface LoadTarget {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Cycled through in order by every connection, or drawn at random with `randomOrder`. */
  variants: RequestVariant[];
  /** Each request draws its variant at random, so no connection repeats a short cycle. */
  randomOrder?: boolean;
  headers?: Record<string, string>;
  /** The process that answers, to charge it its CPU time: a figure contention barely moves. */
  pid?: number;
  /** The status an answer is counted under (a revalidation's 304); any 2xx by default. */
  expectStatus?: number;
}

export interface ThroughputResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU time (user + system) of the answering process per request; null without a pid. */
  cpuMsPerRequest: number | null;
  /** Redis's CPU time per request over the same run (INFO cpu); null when not asked. */
  redisCpuMsPerRequest: number | null;
  requests: number;
  /** Answers not of the expected status (not a 2xx, unless `expectStatus` says which). */
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  connections: number;
  seconds: number;
}

export interface LatencyResult {
  rate: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  requests: number;
  non2xx: number;
  errors: number;
  seconds: number;
}

export const CONNECTIONS = 50;

/** Seconds of warm-up (JIT, pools, caches) and of measurement. */
export function loadDurations(quick: boolean) {
  return quick
    ? { warmUpSeconds: 0.5, measureSeconds: 1, probeSeconds: 0.5 }
    : { warmUpSeconds: 3, measureSeconds: 10, probeSeconds: 10 };
}

/**
 * The most `target` answers with 50 connections, after a warm-up whose figures are dropped;
 * with `redisUrl`, also what that Redis spent per request meanwhile.
 */
export async function measureThroughput(
  target: LoadTarget,
  quick: boolean,
  redisUrl?: string,
): Promise<ThroughputResult> {
  const { warmUpSeconds, measureSeconds } = loadDurations(quick);
  await cannon(target, warmUpSeconds);
  const redis = redisUrl === undefined ? null : new Redis(redisUrl);
  try {
    const cpuBefore = processCpuSeconds(target.pid);
    const redisBefore = redis && (await redisCpuSeconds(redis));
    const result = await cannon(target, measureSeconds);
    const cpuAfter = processCpuSeconds(target.pid);
    const redisAfter = redis && (await redisCpuSeconds(redis));
    return throughputOf(target, result, { cpuBefore, cpuAfter, redisBefore, redisAfter });
  } finally {
    redis?.disconnect();
  }
}

/** The figures of a measured run, CPU per request from the readings taken around it. */
function throughputOf(
  target: LoadTarget,
  result: autocannon.Result,
  cpu: Record<'cpuBefore' | 'cpuAfter' | 'redisBefore' | 'redisAfter', number | null>,
): ThroughputResult {
  const { cpuBefore, cpuAfter, redisBefore, redisAfter } = cpu;
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count ?? 0]),
  );
  const total = result.requests.total;
  const perRequest = (before: number | null, after: number | null) =>
    before === null || after === null || total === 0 ? null : ((after - before) * 1000) / total;
  const answered =
    target.expectStatus === undefined ? result['2xx'] : (statusCodes[target.expectStatus] ?? 0);
  const measured: ThroughputResult = {
    // Answers, not attempts: an error page is no throughput.
    requestsPerSecond: answered / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    cpuMsPerRequest: perRequest(cpuBefore, cpuAfter),
    redisCpuMsPerRequest: perRequest(redisBefore, redisAfter),
    requests: total,
    non2xx: total - answered,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    connections: CONNECTIONS,
    seconds: result.duration,
  };
  assertMostlyAnswered(target, measured.requests, measured.non2xx + measured.errors, statusCodes);
  return measured;
}

function cannon(target: LoadTarget, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: target.origin,
    connections: CONNECTIONS,
    duration: seconds,
    headers: target.headers,
    requests: target.randomOrder
      ? [{ method: 'GET', setupRequest: (request) => ({ ...request, path: randomPath(target) }) }]
      : target.variants.map(({ path, headers }) => ({ method: 'GET', path, headers })),
  });
}

function randomPath(target: LoadTarget): string {
  return target.variants[Math.floor(Math.random() * target.variants.length)]!.path;
}

/**
 * Latency percentiles at `rate` requests a second, sent at even intervals whatever the answers
 * do (open loop), each timed from when it was due.
 */
export async function measureLatency(
  target: LoadTarget,
  rate: number,
  quick: boolean,
): Promise<LatencyResult> {
  const { warmUpSeconds, probeSeconds } = loadDurations(quick);
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  let errors = 0;
  const request = (index: number) =>
    target.randomOrder
      ? { path: randomPath(target) }
      : target.variants[index % target.variants.length]!;
  const at = { origin: target.origin, headers: target.headers, rate, request };
  // As before a throughput run: the first seconds at the rate (JIT, pools, the first read of
  // each answer a cache keeps) are not measured, so that the p99 is the steady state's.
  await openLoop({ ...at, seconds: warmUpSeconds, onOutcome: () => undefined });
  await openLoop({
    ...at,
    seconds: probeSeconds,
    onOutcome: (_, outcome) => {
      if (!('status' in outcome)) {
        errors += 1;
        return;
      }
      latencies.push(outcome.ms);
      statusCodes[outcome.status] = (statusCodes[outcome.status] ?? 0) + 1;
    },
  });
  latencies.sort((a, b) => a - b);
  const quantile = (fraction: number) => percentile(latencies, fraction);
  const non2xx = Object.entries(statusCodes)
    .filter(([code]) => !code.startsWith('2'))
    .reduce((sum, [, count]) => sum + count, 0);
  assertMostlyAnswered(target, latencies.length + errors, non2xx + errors, statusCodes);
  return {
    rate,
    p50Ms: quantile(0.5),
    p90Ms: quantile(0.9),
    p99Ms: quantile(0.99),
    maxMs: latencies.at(-1) ?? 0,
    requests: latencies.length,
    non2xx,
    errors,
    seconds: probeSeconds,
  };
}

/** The `quantile` (0-1) of latencies sorted in ascending order; 0 when there are none. */
export function percentile(sorted: number[], quantile: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1)] ?? 0;
}

/** One request of an open loop: a GET of a path, or a POST of a JSON body. */
export interface OpenLoopRequest {
  /** Where it goes when not to the loop's own origin (one of several servers, say). */
  origin?: string;
  path: string;
  /** JSON text to POST. */
  body?: string;
}

/**
 * What became of a request, timed in milliseconds from when it was due: an answer (with the
 * body of a non-2xx one, for the reason), no answer within the timeout, or a failed connection.
 */
export type Outcome =
  | { status: number; ms: number; errorBody?: string }
  | { error: 'timeout' | 'network'; ms: number; message: string };

/**
 * Sends `rate` requests a second at even intervals for `seconds` (or until `signal` aborts),
 * whatever the answers do, and waits for the last answers.
 */
export async function openLoop(options: {
  origin: string;
  headers?: Record<string, string>;
  rate: number;
  seconds: number;
  signal?: AbortSignal;
  /** A request that has no answer after this long ends as a timeout; none by default. */
  timeoutMs?: number;
  request(index: number): OpenLoopRequest;
  onOutcome(index: number, outcome: Outcome): void;
}): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const inFlight = new Set<Promise<void>>();
  const interval = 1000 / options.rate;
  const start = performance.now();
  const end = start + options.seconds * 1000;
  try {
    for (let index = 0; !options.signal?.aborted; index += 1) {
      const due = start + index * interval;
      if (due >= end) break;
      const ahead = due - performance.now();
      if (ahead >= 1) await sleep(ahead);
      const sent = send(agent, options, options.request(index)).then(
        (answer) => options.onOutcome(index, { ...answer, ms: performance.now() - due }),
        (error: Error & { timedOut?: boolean }) =>
          options.onOutcome(index, {
            error: error.timedOut ? 'timeout' : 'network',
            ms: performance.now() - due,
            message: error.timedOut ? `no answer in ${options.timeoutMs} ms` : error.message,
          }),
      );
      inFlight.add(sent);
      void sent.finally(() => inFlight.delete(sent));
    }
    await Promise.all(inFlight);
  } finally {
    agent.destroy();
  }
}

function send(
  agent: Agent,
  options: { origin: string; headers?: Record<string, string>; timeoutMs?: number },
  { origin = options.origin, path, body }: OpenLoopRequest,
): Promise<{ status: number; errorBody?: string }> {
  return new Promise((resolve, reject) => {
    const timeout =
      options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs);
    const fail = (error: Error) => reject(Object.assign(error, { timedOut: timeout?.aborted }));
    const outgoing = request(
      `${origin}${path}`,
      {
        agent,
        method: body === undefined ? 'GET' : 'POST',
        headers:
          body === undefined
            ? options.headers
            : { ...options.headers, 'content-type': 'application/json' },
        signal: timeout,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        response.on('error', fail);
        if (status >= 200 && status < 300) {
          response.on('end', () => resolve({ status }));
          response.resume();
          return;
        }
        // An error's body says why.
        let errorBody = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (errorBody = (errorBody + chunk).slice(0, 500)));
        response.on('end', () => resolve({ status, errorBody }));
      },
    );
    outgoing.on('error', fail);
    outgoing.end(body);
  });
}

/** A benchmark of 401s or 404s measures nothing: refuse it rather than report it. */
function assertMostlyAnswered(
  target: LoadTarget,
  requests: number,
  failed: number,
  statusCodes: Record<string, number>,
): void {
  if (requests > 0 && failed * 2 < requests) return;
  throw new Error(
    `${failed} of ${requests} requests to ${target.origin}${target.variants[0]?.path ?? ''} ` +
      `failed or were not 2xx (status codes: ${JSON.stringify(statusCodes)})`,
  );
}

/**
 * Where an endpoint stands against its baseline, measured in the same run: throughput (at
 * least `minimumRatio` of the baseline's), and optionally the CPU time the answering process
 * spends per request and the p99 at half the service's maximum, both at most a multiple of the
 * baseline's (its p99 measured at the same open-loop rate, so the machine's own noise is in
 * both).
 */
export async function compareWithBaseline(options: {
  context: BenchContext;
  /** The row's scenario, e.g. 'reads · files by version'. */
  scenario: string;
  service: LoadTarget;
  baselineName: string;
  /** Starts the baseline answering bodies of `bodyBytes`. */
  startBaseline(bodyBytes: number): Promise<ServiceProcess>;
  minimumRatio: number;
  maximumCpuRatio?: number;
  maximumP99Ratio?: number;
}): Promise<Measurement[]> {
  const { context, scenario, service, baselineName } = options;
  const bodyBytes = await meanBodyBytes(service);
  const baselineProcess = await options.startBaseline(bodyBytes);
  try {
    const baseline: LoadTarget = {
      ...service,
      origin: baselineProcess.origin,
      headers: undefined,
      pid: baselineProcess.child.pid,
    };
    context.log(`${scenario}: ${baselineName} throughput (${bodyBytes}-byte body)`);
    const baselineThroughput = await measureThroughput(baseline, context.quick, context.redisUrl);
    context.log(`${scenario}: service throughput`);
    const serviceThroughput = await measureThroughput(service, context.quick, context.redisUrl);
    const rate = Math.max(10, Math.round(serviceThroughput.requestsPerSecond / 2));
    context.log(`${scenario}: service and ${baselineName} latency at ${rate} req/s`);
    const serviceLatency = await measureLatency(service, rate, context.quick);
    const baselineLatency = await measureLatency(baseline, rate, context.quick);
    for (const [name, run] of Object.entries({ service: serviceThroughput, serviceLatency })) {
      if (run.non2xx + run.errors > 0) {
        context.log(`${scenario}: ${name} had ${run.non2xx} non-2xx answers, ${run.errors} errors`);
      }
    }
    const rows = [
      againstBaseline(
        {
          scenario,
          metric: 'req/s',
          service: serviceThroughput.requestsPerSecond,
          details: {
            bodyBytes,
            variants: service.variants.length,
            randomOrder: service.randomOrder ?? false,
            examplePath: service.variants[0]?.path,
            service: serviceThroughput,
            baseline: baselineThroughput,
            latency: { rate, service: serviceLatency, [baselineName]: baselineLatency },
          },
        },
        baselineName,
        baselineThroughput.requestsPerSecond,
        options.minimumRatio,
      ),
    ];
    const serviceCpu = serviceThroughput.cpuMsPerRequest;
    const baselineCpu = baselineThroughput.cpuMsPerRequest;
    if (options.maximumCpuRatio !== undefined && serviceCpu !== null && baselineCpu !== null) {
      rows.push(
        atMostBaseline(
          { scenario, metric: 'CPU ms/request', service: serviceCpu },
          baselineName,
          baselineCpu,
          options.maximumCpuRatio,
        ),
      );
    }
    if (options.maximumP99Ratio !== undefined) {
      rows.push(
        atMostBaseline(
          {
            scenario,
            metric: 'p99 ms',
            service: serviceLatency.p99Ms,
            details: { note: `open loop at ${rate} req/s, half the service's maximum` },
          },
          baselineName,
          baselineLatency.p99Ms,
          options.maximumP99Ratio,
        ),
      );
    }
    return rows;
  } finally {
    await baselineProcess.stop();
  }
}

/** The mean size of the endpoint's answers, so the baseline sends as many bytes. */
async function meanBodyBytes(target: LoadTarget): Promise<number> {
  const sample = target.variants.slice(0, 50);
  let total = 0;
  for (const { path } of sample) {
    const response = await fetch(`${target.origin}${path}`, { headers: target.headers });
    const body = await response.arrayBuffer();
    if (response.status !== 200) {
      throw new Error(`GET ${path} answered ${response.status}: ${Buffer.from(body).toString()}`);
    }
    total += body.byteLength;
  }
  return Math.round(total / sample.length);
}
