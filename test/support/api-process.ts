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

/**
 * `node <entry>` from the built app, on a port the OS reports free (passed in `portVariable`);
 * its output is collected for failure messages. The API and worker helpers build on it.
 */
export async function startServiceProcess(
  name: string,
  entry: string,
  env: Record<string, string>,
  { portVariable, basePath }: { portVariable: string; basePath: string },
): Promise<ApiProcess & { port: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, [entry], {
    cwd: ROOT,
    env: { ...process.env, ...env, [portVariable]: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const service = {
    name,
    port,
    baseUrl: `http://127.0.0.1:${port}${basePath}`,
    child,
    output: '',
    exit: once(child, 'exit'),
  };
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (service.output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (service.output += chunk));
  return service;
}

export function startApiProcess(name: string, env: Record<string, string>): Promise<ApiProcess> {
  return startServiceProcess(name, API_ENTRY, env, { portVariable: 'PORT', basePath: '/v1' });
}

export function isRunning(api: ApiProcess): boolean {
  return api.child.exitCode === null && api.child.signalCode === null;
}

/** Waits until `path` below the process's base URL answers 200; fails at once if it exited. */
export async function serviceAnswers(service: ApiProcess, path: string): Promise<void> {
  const outcome = await waitFor(
    `${service.name} to answer`,
    async () => {
      if (!isRunning(service)) return 'exited';
      const response = await fetch(`${service.baseUrl}${path}`);
      await response.arrayBuffer();
      return response.status === 200 ? 'ready' : undefined;
    },
    60_000,
    100,
  );
  if (outcome === 'exited') {
    throw new Error(`${service.name} exited:\n${service.output.slice(-4000)}`);
  }
}

/** Waits until the API answers (its OpenAPI document). */
export function apiReady(api: ApiProcess): Promise<void> {
  return serviceAnswers(api, '/api/openapi.json');
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
