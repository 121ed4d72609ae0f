import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { onTestFailed } from 'vitest';
import { freePort } from './free-port.js';
import { waitFor } from './wait-for.js';

/** A real API process (`node dist/apps/api/src/main.js`) on a port of its own. */
export interface ApiProcess {
  name: string;
  baseUrl: string;
  child: ChildProcess;
  output: string;
  exit: Promise<unknown>;
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const API_ENTRY = 'dist/apps/api/src/main.js';

export async function startApiProcess(
  name: string,
  env: Record<string, string>,
): Promise<ApiProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [API_ENTRY], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const api: ApiProcess = {
    name,
    baseUrl: `http://127.0.0.1:${port}/v1`,
    child,
    output: '',
    exit: once(child, 'exit'),
  };
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (api.output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (api.output += chunk));
  return api;
}

export function isRunning(api: ApiProcess): boolean {
  return api.child.exitCode === null && api.child.signalCode === null;
}

/** Waits until the process answers (its OpenAPI document); fails at once if it exited. */
export async function apiReady(api: ApiProcess): Promise<void> {
  const outcome = await waitFor(
    `${api.name} to answer`,
    async () => {
      if (!isRunning(api)) return 'exited';
      const response = await fetch(`${api.baseUrl}/api/openapi.json`);
      await response.arrayBuffer();
      return response.status === 200 ? 'ready' : undefined;
    },
    60_000,
    100,
  );
  if (outcome === 'exited') throw new Error(`${api.name} exited:\n${api.output.slice(-4000)}`);
}

/** SIGTERM, and SIGKILL when it has not exited 10 s later. */
export async function stopApiProcess(api: ApiProcess): Promise<void> {
  if (!isRunning(api)) return;
  api.child.kill('SIGTERM');
  const timer = setTimeout(() => api.child.kill('SIGKILL'), 10_000);
  await api.exit;
  clearTimeout(timer);
}

/** In a test: print the end of each process's output if the test fails. */
export function showOutputOnFailure(processes: ApiProcess[]): void {
  onTestFailed(() => {
    for (const api of processes) console.error(`--- ${api.name}\n${api.output.slice(-4000)}`);
  });
}
