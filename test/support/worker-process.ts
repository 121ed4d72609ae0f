import {
  apiReady,
  serviceAnswers,
  startApiProcess,
  startServiceProcess,
  type ApiProcess,
} from './api-process.js';

/**
 * A real worker process (`node dist/apps/worker/src/main.js`) whose `/metrics` and `/health/*`
 * listen on a free port of its own; `baseUrl` is that port's origin (no `/v1`).
 */
export type WorkerProcess = ApiProcess & { port: number };

const WORKER_ENTRY = 'dist/apps/worker/src/main.js';

export function startWorkerProcess(
  name: string,
  env: Record<string, string>,
): Promise<WorkerProcess> {
  // 'log' prints "worker started", which tells the test the worker is consuming.
  return startServiceProcess(
    name,
    WORKER_ENTRY,
    { LOG_LEVEL: 'log', ...env },
    {
      portVariable: 'WORKER_METRICS_PORT',
      basePath: '',
    },
  );
}

/** Waits until the worker answers on its port; fails at once if it exited. */
export function workerReady(worker: WorkerProcess): Promise<void> {
  return serviceAnswers(worker, '/health/live');
}

/**
 * An API process, then a worker process, each ready: the API migrates the schema first, so
 * the worker starts on a ready one.
 */
export async function startApiThenWorker(
  env: Record<string, string>,
): Promise<{ api: ApiProcess; worker: WorkerProcess }> {
  const api = await startApiProcess('api', env);
  await apiReady(api);
  const worker = await startWorkerProcess('worker', env);
  await workerReady(worker);
  return { api, worker };
}
