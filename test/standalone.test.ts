import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDemoCatalogue } from '../apps/api/src/demo/demo-catalogue.js';
import { freePort } from './support/free-port.js';
import { records } from './support/records.js';
import { testEnvironment } from './support/test-environment.js';
import { waitFor } from './support/wait-for.js';

const port = await freePort();
const environment = testEnvironment({ PORT: String(port), DEMO_DATA: 'true' });
// The standalone's own defaults (log level, job locks, retries), as a newcomer gets them: only
// where its data lives is the test's.
const standaloneEnv = Object.fromEntries(
  [
    'DATABASE_URL',
    'DATABASE_SCHEMA',
    'REDIS_URL',
    'QUEUE_PREFIX',
    'ADMIN_TOKEN',
    'PORT',
    'DEMO_DATA',
  ].map((name) => [name, environment.env[name]!]),
);
const baseUrl = `http://127.0.0.1:${port}/v1`;
const DEMO_RECORDS = buildDemoCatalogue().length;
let standalone: ChildProcess | null = null;
/** What the running standalone printed, for the message of a failed stop. */
let printed = '';

afterAll(async () => {
  standalone?.kill('SIGKILL');
  await environment.cleanup();
});

/** Starts `npm start`'s process; resolves with its output once it printed its last line. */
async function start(): Promise<string> {
  let output = '';
  standalone = spawn('node', ['dist/apps/standalone/src/main.js'], {
    env: { ...process.env, ...standaloneEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const record = (chunk: Buffer) => {
    output += chunk.toString();
    printed = output;
  };
  standalone.stdout?.on('data', record);
  standalone.stderr?.on('data', record);
  return waitFor(
    'the standalone to print its next steps',
    async () => (output.includes('Stop with Ctrl+C') ? output : undefined),
    120_000,
    200,
  );
}

async function stop(): Promise<void> {
  const exited = new Promise<number | null>((resolve) => standalone?.once('exit', resolve));
  standalone?.kill('SIGTERM');
  expect(await exited, printed.slice(-3000)).toBe(0);
  standalone = null;
}

const demoKeyIn = (output: string) => /^ {2}(pi_[A-Za-z0-9_-]{43})$/m.exec(output)?.[1];

const get = (path: string, key: string) =>
  fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });

/**
 * The status of a GET, its body read to the end: a client that leaves a large answer unread
 * holds its request open, and the process's shutdown waits for it (then exits 1 at the deadline).
 */
const statusOf = async (path: string, key: string) => {
  const response = await get(path, key);
  await response.arrayBuffer();
  return response.status;
};

/** The GET examples of the README's curl lines against `$API` (with or without the key). */
function readmeExamples(): string[] {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const examples = [...readme.matchAll(/^curl -s (?:-H "\$H" )?"\$API(\/[^"]+)"/gm)];
  return examples.map((match) => `/api${match[1]}`);
}

let key = '';

describe('the standalone process (npm start)', () => {
  it('loads the demo catalogue, then prints the key and next steps last, with a quiet log', async () => {
    const output = await start();
    expect(output).toContain(`on ${baseUrl}`);
    expect(output).toContain(`Loading the demo catalogue: ${DEMO_RECORDS} records`);
    const lines = output.trimEnd().split('\n');
    const loaded = lines.indexOf(`Loaded the demo catalogue: ${DEMO_RECORDS} records.`);
    expect(loaded).toBeGreaterThan(0);
    // What a newcomer needs comes after the load, at the end, and nothing else is logged.
    expect(lines.findIndex((line) => line.startsWith('Demo key'))).toBeGreaterThan(loaded);
    expect(lines.at(-1)).toMatch(/^Stop with Ctrl\+C/);
    expect(lines.filter((line) => line.startsWith('{')).slice(0, 3)).toEqual([]);
    expect(lines.length).toBeLessThan(30);

    // The demo is readable at once: the printed examples answer.
    key = demoKeyIn(output)!;
    for (const example of output.matchAll(/curl -H "[^"]+" "([^"]+)"/g)) {
      const response = await fetch(example[1]!, { headers: { authorization: `Bearer ${key}` } });
      expect(response.status, example[1]).toBe(200);
    }
  }, 180_000);

  it("answers every GET example of the README's reading sections on the demo data", async () => {
    const examples = readmeExamples();
    expect(examples.length).toBeGreaterThan(20);
    for (const path of examples) {
      const response = await get(path, key);
      expect(response.status, path).toBe(200);
      const text = await response.text();
      // The demo's exchange rates convert every price its examples show (an NDJSON export
      // answers one document a line).
      if (/[?&]currency=/.test(path)) {
        const ndjson = response.headers.get('content-type') === 'application/x-ndjson';
        for (const line of ndjson ? text.split('\n').filter(Boolean) : [text]) {
          const body = JSON.parse(line) as {
            unconverted?: number;
            data?: {
              plan: { charges: { monthly_equivalent: number | null; converted: unknown }[] };
            }[];
          };
          // The plan search counts none: each of its charges shows its own conversion.
          const unconverted = body.data
            ? body.data
                .flatMap(({ plan }) => plan.charges)
                .filter((charge) => charge.monthly_equivalent !== null && charge.converted === null)
                .length
            : body.unconverted;
          expect(unconverted, path).toBe(0);
        }
      }
    }
  });

  it('ingests a pushed batch, and stops on SIGTERM', async () => {
    const pushed = await fetch(`${baseUrl}/ingest/records`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify([records.company('newcomer.io'), records.page('newcomer.io')]),
    });
    expect(pushed.status).toBe(202);
    const { batch_id } = (await pushed.json()) as { batch_id: string };
    const done = await waitFor('the pushed batch to be done', async () => {
      const status = (await (await get(`/ingest/batches/${batch_id}`, key)).json()) as {
        complete: boolean;
        counts: Record<string, number>;
      };
      return status.complete ? status : undefined;
    });
    expect(done.counts).toMatchObject({ done: 2, failed: 0 });
    await stop();
  });

  it('loads the demo catalogue again after its database is removed (rm -rf data)', async () => {
    await environment.dropDatabase();
    const output = await start();
    expect(output).toContain(`Loaded the demo catalogue: ${DEMO_RECORDS} records.`);
    const again = demoKeyIn(output)!;
    expect(again).not.toBe(key);
    expect(await statusOf('/api/pricing/acmechat', again)).toBe(200);
    expect(await statusOf('/api/companies/newcomer.io', again)).toBe(404);
    await stop();
  }, 180_000);
});
