import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../test/support/free-port.js';

/** A built service process (`node dist/apps/...`) started by a benchmark. */
export interface ServiceProcess {
  name: string;
  /** http://127.0.0.1:<port> (no /v1). */
  origin: string;
  child: ChildProcess;
  /** The end of its output, for error messages. */
  output(): string;
  /** Resident memory now, in MB (VmRSS of /proc/<pid>/status). */
  rssMb(): number;
  /** Peak resident memory so far, in MB (VmHWM of /proc/<pid>/status). */
  peakRssMb(): number;
  stop(): Promise<void>;
}

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** The heap limits the API runs with (package.json's scripts, the Dockerfile). */
export const API_NODE_FLAGS = ['--max-old-space-size=192', '--max-semi-space-size=4'];
/** The worker's: a larger nursery for its short-lived objects. */
export const WORKER_NODE_FLAGS = ['--max-old-space-size=192', '--max-semi-space-size=8'];
/** The command-line tool's: a rebuild spent a third of its time collecting with a small nursery. */
export const CLI_NODE_FLAGS = ['--max-old-space-size=192', '--max-semi-space-size=16'];

const ENTRIES = {
  api: {
    entry: 'dist/apps/api/src/main.js',
    flags: API_NODE_FLAGS,
    portVariable: 'PORT',
    readyPath: '/health/live',
  },
  worker: {
    entry: 'dist/apps/worker/src/main.js',
    flags: WORKER_NODE_FLAGS,
    portVariable: 'WORKER_METRICS_PORT',
    readyPath: '/health/live',
  },
  // The baselines of bench/baselines/, built by bench/tsconfig.json.
  r0: {
    entry: 'dist/bench/baselines/r0.js',
    flags: [],
    portVariable: 'PORT',
    readyPath: '/health/live',
  },
  r1: {
    entry: 'dist/bench/baselines/r1.js',
    flags: [],
    portVariable: 'PORT',
    readyPath: '/health/live',
  },
} as const;

/**
 * Starts the API, the worker or a baseline with `env` on top of this process's, and waits until
 * it answers.
 */
export async function startService(
  kind: keyof typeof ENTRIES,
  env: Record<string, string>,
  name: string = kind,
): Promise<ServiceProcess> {
  const { entry, flags, portVariable, readyPath } = ENTRIES[kind];
  const port = await freePort();
  // BENCH_CPU_PROF=<dir>: each service writes a V8 CPU profile there when it stops.
  const profile = process.env.BENCH_CPU_PROF;
  const nodeArgs = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  const child = spawn(process.execPath, [...flags, ...nodeArgs, entry], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, [portVariable]: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: string) => (output = (output + chunk).slice(-8000));
  child.stdout?.setEncoding('utf8').on('data', keep);
  child.stderr?.setEncoding('utf8').on('data', keep);
  const exited = once(child, 'exit');
  const running = () => child.exitCode === null && child.signalCode === null;
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (!running()) throw new Error(`${name} exited before answering:\n${output}`);
    const answered = await fetch(`${origin}${readyPath}`).then(
      async (response) => (await response.arrayBuffer(), response.ok),
      () => false,
    );
    if (answered) break;
    if (Date.now() > deadline) throw new Error(`${name} did not answer in 60 s:\n${output}`);
    await new Promise((next) => setTimeout(next, 100));
  }
  return {
    name,
    origin,
    child,
    output: () => output,
    rssMb: () => memoryMb(child.pid, 'VmRSS'),
    peakRssMb: () => peakRssMb(child.pid),
    async stop() {
      if (!running()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Starts several services side by side with the same `env`; should one fail, stops those that
 * started and throws its error.
 */
export async function startServices(
  kinds: Array<keyof typeof ENTRIES>,
  env: Record<string, string>,
): Promise<ServiceProcess[]> {
  const started = await Promise.allSettled(kinds.map((kind) => startService(kind, env)));
  const running = started.flatMap((result) =>
    result.status === 'fulfilled' ? [result.value] : [],
  );
  const failed = started.find((result) => result.status === 'rejected');
  if (!failed) return running;
  for (const service of running) await service.stop();
  throw failed.reason;
}

/** VmHWM of a Linux process in MB; 0 once it has exited. */
export function peakRssMb(pid: number | undefined): number {
  return memoryMb(pid, 'VmHWM');
}

/** A memory line of /proc/<pid>/status (VmRSS: now, VmHWM: peak) in MB; 0 once it has exited. */
function memoryMb(pid: number | undefined, field: 'VmRSS' | 'VmHWM'): number {
  if (pid === undefined) return 0;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kilobytes = Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return kilobytes / 1024;
  } catch {
    return 0;
  }
}
