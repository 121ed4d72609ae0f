import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { isRunning, type ApiProcess } from './api-process.js';
import { freePort } from './free-port.js';
import { waitFor } from './wait-for.js';

/**
 * A real worker process (`node dist/apps/worker/src/main.js`) whose `/metrics` and `/health/*`
 * listen on a free port of its own; `baseUrl` is that port's origin (no `/v1`).
 */
export type WorkerProcess = ApiProcess & { port: number };

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WORKER_ENTRY = 'dist/apps/worker/src/main.js';

export async function startWorkerProcess(
  name: string,
  env: Record<string, string>,
): Promise<WorkerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [WORKER_ENTRY], {
    cwd: ROOT,
    // 'log' prints "worker started", which tells the test the worker is consuming.
    env: { ...process.env, LOG_LEVEL: 'log', ...env, WORKER_METRICS_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const worker: WorkerProcess = {
    name,
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    child,
    output: '',
    exit: once(child, 'exit'),
  };
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (worker.output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (worker.output += chunk));
  return worker;
}

/** Waits until the worker answers on its port; fails at once if it exited. */
export async function workerReady(worker: WorkerProcess): Promise<void> {
  await waitFor(
    `${worker.name} to answer`,
    async () => {
      if (!isRunning(worker)) {
        throw new Error(`${worker.name} exited:\n${worker.output.slice(-4000)}`);
      }
      const response = await fetch(`${worker.baseUrl}/health/live`);
      await response.arrayBuffer();
      return response.status === 200 ? true : undefined;
    },
    60_000,
    100,
  );
}
