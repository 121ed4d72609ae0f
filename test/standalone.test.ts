import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDemoCatalogue } from '../apps/api/src/demo/demo-catalogue.js';
import { freePort } from './support/free-port.js';
import { records } from './support/records.js';
import { testEnvironment } from './support/test-environment.js';
import { waitFor } from './support/wait-for.js';

const port = await freePort();
const environment = testEnvironment({ PORT: String(port), DEMO_DATA: 'true', LOG_LEVEL: 'warn' });
const baseUrl = `http://127.0.0.1:${port}/v1`;
let standalone: ChildProcess | null = null;
let output = '';

afterAll(async () => {
  standalone?.kill('SIGKILL');
  await environment.cleanup();
});

interface BatchStatus {
  complete: boolean;
  total: number;
  counts: Record<string, number>;
}

async function batchStatus(key: string, batchId: string): Promise<BatchStatus> {
  const response = await fetch(`${baseUrl}/ingest/batches/${batchId}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return (await response.json()) as BatchStatus;
}

describe('the standalone process (npm start)', () => {
  it('loads the demo catalogue through the queue, prints a key, ingests, and stops on SIGTERM', async () => {
    standalone = spawn('node', ['dist/apps/api/src/standalone.js'], {
      env: { ...process.env, ...environment.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    standalone.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    standalone.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

    const key = await waitFor(
      'the demo key to be printed',
      async () => /Demo key[^\n]*: (pi_[A-Za-z0-9_-]{43})/.exec(output)?.[1],
    );
    expect(output).toContain(`on ${baseUrl}`);
    const demoRecords = buildDemoCatalogue().length;
    expect(output).toContain(`Queued the demo catalogue: ${demoRecords} records`);

    // The printed curl names the last batch; the dependency order means it settles last.
    const lastBatch = /ingest\/batches\/([0-9a-f-]{36})/.exec(output)?.[1] as string;
    const settled = await waitFor(
      'the demo data to be ingested',
      async () => {
        const status = await batchStatus(key, lastBatch);
        return status.complete ? status : undefined;
      },
      120_000,
      500,
    );
    expect(settled.counts.failed).toBe(0);
    expect(settled.counts.done).toBe(settled.total);

    const pushed = await fetch(`${baseUrl}/ingest/records`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify([records.company('newcomer.io'), records.page('newcomer.io')]),
    });
    expect(pushed.status).toBe(202);
    const { batch_id } = (await pushed.json()) as { batch_id: string };
    const done = await waitFor('the pushed batch to be done', async () => {
      const status = await batchStatus(key, batch_id);
      return status.complete ? status : undefined;
    });
    expect(done.counts).toMatchObject({ done: 2, failed: 0 });

    const exited = new Promise<number | null>((resolve) => standalone?.once('exit', resolve));
    standalone.kill('SIGTERM');
    expect(await exited).toBe(0);
    standalone = null;
  }, 180_000);
});
