import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDemoCatalogue } from '../apps/api/src/demo/demo-catalogue.js';
import { freePort } from './support/free-port.js';
import { records } from './support/records.js';
import { testEnvironment } from './support/test-environment.js';
import { waitFor } from './support/wait-for.js';
import { runCli, said } from './support/cli-process.js';
import { DOCUMENTS, documentText } from './support/documents.js';

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
// The webhook examples register https://hooks.example.com, which resolves to no public address
// here: the guide says to start the service so for a receiver of one's own.
standaloneEnv.WEBHOOK_ALLOW_PRIVATE_URLS = 'true';
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

/** A plan of an answer given `currency`: its charges' figures, and each one's conversion. */
interface ConvertedPlan {
  charges: { monthly_equivalent: number | null; converted: unknown }[];
}

/** The GET examples of the README's and the guides' curl lines against `$API`. */
function getExamples(): string[] {
  return DOCUMENTS.flatMap((document) =>
    [...documentText(document).matchAll(/^curl -s (?:-H "\$H" )?"\$API(\/[^"]+)"/gm)].map(
      (match) => `/api${match[1]}`,
    ),
  );
}

/** Whether shell text ends inside a quote (a `#` after a blank, outside quotes, starts a comment). */
function leavesQuoteOpen(text: string): boolean {
  let quote: string | null = null;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index]!;
    if (quote) {
      if (character === quote) quote = null;
    } else if (character === "'" || character === '"') {
      quote = character;
    } else if (character === '#' && /\s/.test(text[index - 1] ?? ' ')) {
      index = text.indexOf('\n', index);
      if (index < 0) break;
    }
  }
  return quote !== null;
}

/**
 * Every other curl command of the documents' bash blocks, block by block, as written: a
 * command runs on over a line that ends in a backslash or leaves a quote open.
 */
function otherCurlCommands(): { where: string; commands: string[] }[] {
  const blocks: { where: string; commands: string[] }[] = [];
  for (const document of DOCUMENTS) {
    for (const block of documentText(document).matchAll(/^```bash\n([\s\S]*?)^```$/gm)) {
      const commands: string[] = [];
      let command: string | null = null;
      for (const line of block[1]!.split('\n')) {
        if (command === null && !line.startsWith('curl ')) continue;
        command = command === null ? line : `${command}\n${line}`;
        if (!leavesQuoteOpen(command) && !line.endsWith('\\')) {
          if (!/^curl -s (?:-H "\$H" )?"\$API\/[^"]+"/.test(command)) commands.push(command);
          command = null;
        }
      }
      if (commands.length > 0) {
        const line = documentText(document).slice(0, block.index).split('\n').length;
        blocks.push({ where: `${document}:${line}`, commands });
      }
    }
  }
  return blocks;
}

const run = promisify(execFile);

/**
 * The command-line examples of the documents' bash blocks that run beside a serving process:
 * all but `rebuild` (which takes the read models down while the standalone serves them) and
 * `ingest <file>` (of a file the reader has), with optional arguments (`[--json]`) left out.
 */
function cliExamples(): { where: string; args: string[] }[] {
  const examples: { where: string; args: string[] }[] = [];
  for (const document of DOCUMENTS) {
    const text = documentText(document);
    for (const block of text.matchAll(/^```bash\n([\s\S]*?)^```$/gm)) {
      for (const [, line] of block[1]!.matchAll(/npm run cli -- ([^#\n]+)/g)) {
        const args = line!
          .replace(/\[[^\]]*\]/g, '')
          .trim()
          .split(/\s+/);
        if (args[0] === 'rebuild' || args[0] === 'ingest') continue;
        examples.push({
          where: `${document}:${text.slice(0, block.index).split('\n').length}`,
          args,
        });
      }
    }
  }
  return examples;
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

  it('answers every GET example of the README and the guides on the demo data', async () => {
    const examples = getExamples();
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
            data?: { plan: ConvertedPlan }[];
            pages?: { plans: ConvertedPlan[] }[];
            points?: { date: string }[];
          };
          // The plan search and the comparison count none: each charge shows its own conversion.
          const charges =
            body.data?.flatMap(({ plan }) => plan.charges) ??
            body.pages?.flatMap((page) => page.plans.flatMap((plan) => plan.charges));
          const unconverted = charges
            ? charges.filter(
                (charge) => charge.monthly_equivalent !== null && charge.converted === null,
              ).length
            : body.unconverted;
          if (body.points) {
            // Nor the price index: each point is the benchmarks of its day, which count them.
            const filters = new URLSearchParams(path.split('?')[1]);
            for (const name of ['from', 'to', 'step']) filters.delete(name);
            for (const { date } of body.points) {
              filters.set('as_of', date);
              const day = `/api/benchmarks?${filters.toString()}`;
              const benchmark = (await (await get(day, key)).json()) as { unconverted: number };
              expect(benchmark.unconverted, day).toBe(0);
            }
          } else {
            expect(unconverted, path).toBe(0);
          }
        }
      }
    }
  });

  it('answers every other curl example of the guides as written (ingest, webhooks, keys, MCP)', async () => {
    const blocks = otherCurlCommands();
    expect(blocks.flatMap(({ commands }) => commands).length).toBeGreaterThan(8);
    const origin = new URL(baseUrl).origin;
    for (const { where, commands } of blocks) {
      // A placeholder id (`<id>`, `5f0c…`) stands for the id of what the block created last.
      let lastId = '';
      for (const written of commands) {
        const command = written
          .replace(/^curl /, `curl -w '\\n%{http_code}' `)
          .replaceAll('http://127.0.0.1:3000', origin)
          .replaceAll('pi_...', key)
          .replace(/<id>|\b[0-9a-f]{4}…/g, () => lastId);
        const { stdout } = await run('bash', ['-c', command], {
          env: {
            ...process.env,
            KEY: key,
            API: `${baseUrl}/api`,
            H: `Authorization: Bearer ${key}`,
            ADMIN_TOKEN: standaloneEnv.ADMIN_TOKEN,
          },
        });
        const lines = stdout.trimEnd().split('\n');
        const status = Number(lines.at(-1));
        expect(status, `${where}: ${written}\n${stdout.slice(0, 500)}`).toBeGreaterThanOrEqual(200);
        expect(status, `${where}: ${written}\n${stdout.slice(0, 500)}`).toBeLessThan(300);
        const created = /-X POST/.test(written)
          ? /"(?:batch_id|id)":\s*"([^"]+)"/.exec(lines.slice(0, -1).join('\n'))?.[1]
          : undefined;
        if (created) lastId = created;
      }
    }
  }, 60_000);

  it('runs the command-line examples of the guides against the same data', async () => {
    const examples = cliExamples();
    expect(examples.length).toBeGreaterThan(8);
    // Where `export --output pricing.csv` writes.
    const directory = mkdtempSync(join(tmpdir(), 'cli-examples-'));
    try {
      let created = '';
      for (const { where, args } of examples) {
        const command = args.map((arg) => (arg === '<id>' ? created : arg));
        const result = await runCli(standaloneEnv, command, {}, { cwd: directory });
        expect(result.code, `${where}: cli ${command.join(' ')}\n${said(result)}`).toBe(0);
        if (args[0] === 'keys:create') {
          created = /"id":\s*"([^"]+)"/.exec(result.stdout)?.[1] ?? '';
        }
      }
      expect(created).not.toBe('');
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }, 120_000);

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
