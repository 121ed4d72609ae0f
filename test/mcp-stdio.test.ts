import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiReady,
  showOutputOnFailure,
  startApiProcess,
  stopApiProcess,
  type ApiProcess,
} from './support/api-process.js';
import { getJson, ingestAndProject } from './support/catalogue-fixture.js';
import { countsOf } from './support/metering.js';
import {
  callTool,
  MCP_CATALOGUE,
  expectRefusedBeforeAnyCall,
  PATH_ESCAPES,
  postMcp,
  textOf,
  TOOL_CALLS,
} from './support/mcp-tool-calls.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/*
 * `npm run --silent mcp` as a desktop assistant starts it: the built stdio server
 * (node dist/apps/api/src/mcp/stdio.js, what the script runs) against a real API process. Its
 * stdout carries JSON-RPC only, its tools are charged as their REST calls, and no key shows in
 * the output of either process, /mcp's over HTTP included. Then each tool over stdio, on a
 * catalogue.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STDIO_ENTRY = 'dist/apps/api/src/mcp/stdio.js';

const environment = testEnvironment({ LOG_LEVEL: 'log' });
let api: ApiProcess;
let key: string;

beforeAll(async () => {
  api = await startApiProcess('api', environment.env);
  await apiReady(api);
  const created = await fetch(`${api.baseUrl}/admin/keys`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${environment.env.ADMIN_TOKEN}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ name: 'mcp stdio', plan: 'enterprise', scopes: ['read'] }),
  });
  expect(created.status).toBe(201);
  key = ((await created.json()) as { key: string }).key;
});

afterAll(async () => {
  if (api) await stopApiProcess(api);
  await environment.cleanup();
});

const creditsUsed = async () => {
  const response = await fetch(`${api.baseUrl}/api/usage`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return ((await response.json()) as { credits: { used: number } }).credits.used;
};

describe('the stdio server', () => {
  it('speaks only JSON-RPC on stdout, and its tools answer and are charged as REST calls', async () => {
    showOutputOnFailure([api]);
    // As users start it: whatever npm itself writes must not reach stdout either.
    const transport = new StdioClientTransport({
      command: 'npm',
      args: ['run', '--silent', 'mcp'],
      cwd: ROOT,
      env: { PRICING_API_URL: api.baseUrl, PRICING_API_KEY: key, PATH: process.env.PATH ?? '' },
      stderr: 'pipe',
    });
    let stderr = '';
    (transport.stderr as Readable | null)
      ?.setEncoding('utf8')
      .on('data', (chunk: string) => (stderr += chunk));
    const client = new Client({ name: 'mcp-stdio-test', version: '1.0.0' });
    // Every line the server writes on stdout is parsed as a JSON-RPC message; one that is not
    // (a stray log line) reaches the client's error handler, and nothing else would show it.
    const unreadable: Error[] = [];
    client.onerror = (error) => unreadable.push(error);
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      // TOOL_CALLS calls each tool once.
      expect(tools.map((tool) => tool.name).sort()).toEqual(
        [...new Set(TOOL_CALLS.map(([name]) => name))].sort(),
      );

      const before = await creditsUsed();
      const result = (await client.callTool({
        name: 'search_companies',
        arguments: { limit: 5 },
      })) as CallToolResult;
      expect(result.isError ?? false).toBe(false);
      expect(await creditsUsed()).toBe(before + 1);
      const rest = await fetch(`${api.baseUrl}/api/companies?limit=5`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(result.structuredContent).toEqual(await rest.json());

      const refused = (await client.callTool({
        name: 'get_pricing',
        arguments: { slug: 'nosuch.io' },
      })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/^NOT_FOUND: /);
      expect(await creditsUsed()).toBe(before + 2);

      // The same over HTTP at /mcp of the same process, for its logs.
      const overHttp = await postMcp(
        new URL('/mcp', api.baseUrl),
        {
          id: 7,
          method: 'tools/call',
          params: { name: 'get_company', arguments: { slug: 'nosuch.io' } },
        },
        { authorization: `Bearer ${key}` },
      );
      expect(await overHttp.json()).toMatchObject({ id: 7, result: { isError: true } });
    } finally {
      await client.close();
    }
    expect(unreadable).toEqual([]);
    expect(stderr).toContain('Pricing MCP server on stdio');
    for (const output of [stderr, api.output]) {
      expect(output).not.toContain(key);
      expect(output).not.toContain(key.slice(-16));
    }
  });

  it('does not start without PRICING_API_KEY: exit 1, the reason on stderr, nothing on stdout', async () => {
    const child = spawn(process.execPath, [STDIO_ENTRY], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', PRICING_API_URL: api.baseUrl },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/PRICING_API_KEY: an API key is required/);
  });
});

describe('each tool over stdio', () => {
  const catalogueEnvironment = testEnvironment();
  let app: TestApp;
  let appKey: string;
  let stdio: Client;

  beforeAll(async () => {
    app = await startTestApp(catalogueEnvironment.config());
    appKey = await app.createKey(['read'], 'enterprise');
    await ingestAndProject(app, MCP_CATALOGUE);
    stdio = new Client({ name: 'mcp-stdio-tools-test', version: '1.0.0' });
    await stdio.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [STDIO_ENTRY],
        cwd: ROOT,
        env: {
          PRICING_API_URL: app.baseUrl,
          PRICING_API_KEY: appKey,
          PATH: process.env.PATH ?? '',
        },
        stderr: 'ignore',
      }),
    );
  });

  afterAll(async () => {
    await stdio?.close();
    await app?.close();
    await catalogueEnvironment.cleanup();
  });

  const used = async () => (await countsOf(app, appKey)).credits;

  it.each(TOOL_CALLS)('%s %j answers as GET %s, charged as it', async (name, args, path) => {
    const before = await used();
    const result = await callTool(stdio, name, args);
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(await used()).toBe(before + 1);
    const rest = await getJson(app, path, appKey);
    expect(rest.status).toBe(200);
    expect(result.structuredContent).toEqual(rest.body);
    expect(JSON.parse(textOf(result))).toEqual(rest.body);
  });

  it('a bad slug is a tool error led by the REST code, and costs nothing', async () => {
    const before = await used();
    const result = await callTool(stdio, 'diff_pricing', { slug: 'alpha.i', from: '20250105' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^NOT_FOUND: /);
    expect(await used()).toBe(before);
  });

  it.each(PATH_ESCAPES)(
    '%s %j would leave its route: refused before any call, naming the parameter',
    (...escape) => expectRefusedBeforeAnyCall(stdio, escape, () => countsOf(app, appKey)),
  );
});
