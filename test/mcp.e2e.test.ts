import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, ingestAndProject, type GeneralErrorBody } from './support/catalogue-fixture.js';
import { countsOf } from './support/metering.js';
import { pastBurstLimit } from './support/past-burst-limit.js';
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
 * The MCP server over streamable HTTP at /mcp, driven by the SDK's own client: the tools,
 * each answering its REST route's body and charged as that route is, refusals as tool errors
 * that start with the REST code, the key checked as the REST API checks it, and every /mcp
 * request bounded by the key's burst limit (at the default limits).
 */

const environment = testEnvironment();
let api: TestApp;
let key: string;
let mcpUrl: URL;
let client: Client;

const TOOL_ROUTES: Record<string, string[]> = {
  search_companies: ['/v1/api/companies'],
  get_company: ['/v1/api/companies/{slug}'],
  get_pricing: ['/v1/api/pricing/{slug}'],
  diff_pricing: ['/v1/api/pricing/{slug}/diff'],
  list_changes: ['/v1/api/changes'],
  search_plans: ['/v1/api/plans'],
  pricing_series: ['/v1/api/pricing/{slug}/series'],
  price_benchmarks: ['/v1/api/benchmarks'],
  compare_pricing: ['/v1/api/compare'],
  price_index: ['/v1/api/benchmarks/series'],
  get_files: ['/v1/api/files/{slug}/version/{version}', '/v1/api/files/{slug}/period/{period}'],
};

/** An MCP client on /mcp with these headers; it waits out burst refusals as test apps do. */
async function connect(headers: Record<string, string>): Promise<Client> {
  const mcp = new Client({ name: 'mcp-e2e-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(mcpUrl, {
    requestInit: { headers },
    fetch: (input, init) => pastBurstLimit(() => fetch(input, init)),
  });
  await mcp.connect(transport);
  return mcp;
}

const creditsUsed = async () => (await countsOf(api, key)).credits;

/** A message POSTed by hand with the shared key, waiting out burst refusals as a client does. */
const postWithKey = (message: Record<string, unknown> | Record<string, unknown>[]) =>
  pastBurstLimit(() => postMcp(mcpUrl, message, { authorization: `Bearer ${key}` }));

beforeAll(async () => {
  api = await startTestApp(environment.config());
  mcpUrl = new URL('/mcp', api.baseUrl);
  key = await api.createKey(['read'], 'enterprise');
  await ingestAndProject(api, MCP_CATALOGUE);
  client = await connect({ authorization: `Bearer ${key}` });
});

afterAll(async () => {
  await client?.close();
  await api?.close();
  await environment.cleanup();
});

describe('tools/list', () => {
  it('lists the tools, each taking exactly its routes’ parameters as the document states them', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(TOOL_ROUTES).sort());
    const document = (await (await api.request('/api/openapi.json')).json()) as OpenApiDocument;
    for (const tool of tools) {
      // What an assistant picks a tool by: what it answers, the route it calls, what it costs.
      expect(tool.description, tool.name).toMatch(
        /^.{20,}GET \/v1\/api\/.*Costs 1 credit when answered/s,
      );
      expect(tool.annotations?.readOnlyHint).toBe(true);
      const schema = tool.inputSchema as JsonObjectSchema;
      const documented = new Map<string, DocumentedParameter>();
      for (const route of TOOL_ROUTES[tool.name]!) {
        for (const parameter of document.paths[route]!.get.parameters ?? []) {
          if (parameter.in !== 'header') documented.set(parameter.name, parameter);
        }
      }
      expect(Object.keys(schema.properties).sort(), tool.name).toEqual(
        [...documented.keys()].sort(),
      );
      for (const [name, parameter] of documented) {
        const property = schema.properties[name]!;
        expect(property.description, `${tool.name}.${name}`).toBeTruthy();
        expect(property.type, `${tool.name}.${name}`).toBe(parameter.schema.type);
        for (const bound of ['pattern', 'enum', 'minimum', 'maximum', 'maxLength'] as const) {
          expect(property[bound], `${tool.name}.${name}.${bound}`).toEqual(parameter.schema[bound]);
        }
        const required = (schema.required ?? []).includes(name);
        // get_files takes one of version or period, each required by its own route.
        const requiredByDocument = parameter.required === true && tool.name !== 'get_files';
        expect(required, `${tool.name}.${name} required`).toBe(
          requiredByDocument || (tool.name === 'get_files' && name === 'slug'),
        );
      }
    }
  });
});

describe('tools/call answers the REST body and is charged as the REST call', () => {
  it.each(TOOL_CALLS)('%s %j is GET %s', async (name, args, path) => {
    const before = await creditsUsed();
    const result = await callTool(client, name, args);
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(await creditsUsed()).toBe(before + 1);

    const rest = await getJson(api, path, key);
    expect(rest.status).toBe(200);
    expect(await creditsUsed()).toBe(before + 2);
    expect(result.structuredContent).toEqual(rest.body);
    expect(JSON.parse(textOf(result))).toEqual(rest.body);
  });

  it('a known answer: the pricing in force on a date, and the change between two versions', async () => {
    const pricing = (await callTool(client, 'get_pricing', { slug: 'alpha.io', as_of: '20250401' }))
      .structuredContent as { version: string; plans: { charges: { price: number }[] }[] };
    expect(pricing.version).toBe('20250301');
    expect(pricing.plans[0]?.charges[0]?.price).toBe(12);
    const companies = (await callTool(client, 'search_companies', { search: 'a' }))
      .structuredContent as {
      data: { slug: string }[];
    };
    expect(companies.data.map((company) => company.slug)).toEqual([
      'alpha.io',
      'beta.io',
      'gamma.io',
    ]);
  });

  it('a known answer: two pages side by side, in the order asked, at one date', async () => {
    const compared = (
      await callTool(client, 'compare_pricing', { slugs: 'gamma,alpha.io', as_of: '20250401' })
    ).structuredContent as { pages: { slug: string; version: string; entry_price: number }[] };
    expect(compared.pages.map((page) => [page.slug, page.version, page.entry_price])).toEqual([
      ['gamma', '20250105', 30],
      ['alpha', '20250301', 12],
    ]);
  });
});

describe('refusals are tool errors that start with the REST code, and are not charged', () => {
  const refusals: [string, Record<string, unknown>, RegExp][] = [
    // The general shape: the category, then the message.
    ['get_company', { slug: 'nosuch.io' }, /^Not Found: /],
    ['search_companies', { limit: 500 }, /^Bad Request: /],
    ['search_companies', { category: 'astrology' }, /^Bad Request: /],
    // The coded shape: the code, then the message.
    ['get_files', { slug: 'nosuch.io', version: '20250301' }, /^NOT_FOUND: /],
    ['get_pricing', { slug: 'alpha.io', version: '20240101' }, /^VERSION_NOT_FOUND: /],
    [
      'get_pricing',
      { slug: 'alpha.io', version: '20250105', period: '2025Q1' },
      /^CONFLICTING_PARAMETERS: /,
    ],
    // Formats, bounds and enumerations of query parameters are the API's to judge.
    ['get_pricing', { slug: 'alpha.io', version: '2025-01-05' }, /^INVALID_VERSION: /],
    ['get_pricing', { slug: 'alpha.io', period: '2025X1' }, /^INVALID_PERIOD_FORMAT: /],
    ['pricing_series', { slug: 'alpha.io', step: 'decade' }, /^INVALID_PARAMETER: /],
    ['list_changes', { event_type: 'price_exploded' }, /^Bad Request: Unknown event_type/],
    ['search_plans', { add_on: 'maybe' }, /^INVALID_PARAMETER: /],
    ['compare_pricing', { slugs: 'alpha.io' }, /^INVALID_PARAMETER: slugs /],
    ['compare_pricing', { slugs: 'alpha.io,nosuch.io' }, /^NOT_FOUND: /],
    ['price_index', { from: '20250101', step: 'week' }, /^INVALID_PARAMETER: step /],
    ['price_index', { from: '20250101', to: '20100101' }, /^INVALID_RANGE: /],
    // A path parameter outside its pattern, or no route that takes both or neither: refused
    // before any call.
    ['get_files', { slug: 'alpha.io', period: '2025X1' }, /^INVALID_PARAMETER: period /],
    [
      'get_files',
      { slug: 'alpha.io', version: '20250301', period: '2025Q1' },
      /^CONFLICTING_PARAMETERS: /,
    ],
    ['get_files', { slug: 'alpha.io' }, /^INVALID_PARAMETER: /],
  ];

  it.each(refusals)('%s %j', async (name, args, lead) => {
    const before = await creditsUsed();
    const result = await callTool(client, name, args);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(lead);
    expect(await creditsUsed()).toBe(before);
  });

  it.each(PATH_ESCAPES)(
    '%s %j would leave its route: refused before any call, naming the parameter',
    (...escape) => expectRefusedBeforeAnyCall(client, escape, () => countsOf(api, key)),
  );

  it('a slug that matches its pattern still makes its call', async () => {
    const before = await creditsUsed();
    const result = await callTool(client, 'get_pricing', { slug: 'alpha.io' });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(result.structuredContent).toMatchObject({ version: '20250301' });
    expect(await creditsUsed()).toBe(before + 1);
  });

  it('carries the REST details: the suggestion for an unknown slug', async () => {
    const result = await callTool(client, 'get_company', { slug: 'alpha.i' });
    expect(textOf(result)).toMatch(/^Not Found: .+\n\{.*"suggestion"/s);
    expect(result.structuredContent).toMatchObject({
      error: 'Not Found',
      details: { slug: 'alpha.i' },
    });
  });

  it('a key without the plan feature gets the REST 403 as a tool error', async () => {
    const free = await connect({
      authorization: `Bearer ${await api.createKey(['read'], 'free')}`,
    });
    try {
      const result = await callTool(free, 'get_pricing', { slug: 'alpha.io' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^PLAN_REQUIRED: /);
    } finally {
      await free.close();
    }
  });
});

describe('admission: every /mcp request is bounded by the key’s burst limit, as an uncharged request', () => {
  const BURST = environment.config().limits.burstPerSecond;
  /**
   * What the burst bucket lets through while a flood is metered: the burst, and one unit more for
   * each 1000 / BURST ms the metering of the flood spans (at most the time until its last answer).
   */
  const admittedWithin = (elapsedMs: number) => BURST + Math.floor((elapsedMs * BURST) / 1000);

  /** Three times the burst of one message, POSTed at once with a new pro key. */
  async function flood(message: Record<string, unknown>) {
    const proKey = await api.createKey(['read'], 'pro');
    const count = 3 * BURST;
    // The burst limit is about requests at one instant, so they must reach the API together, as
    // many clients' do: one open connection each (opened on a route that is not metered), and
    // node:http, which writes them all before the event loop turns (fetch may spread them over
    // turns, between the answers to the first ones, which share this process).
    const agent = new Agent({ keepAlive: true });
    try {
      const live = new URL('/health/live', api.baseUrl);
      await Promise.all(Array.from({ length: count }, () => send(agent, 'GET', live)));
      const started = performance.now();
      const answers = await Promise.all(
        Array.from({ length: count }, (_, id) =>
          send(agent, 'POST', mcpUrl, JSON.stringify({ jsonrpc: '2.0', id, ...message }), {
            authorization: `Bearer ${proKey}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          }),
        ),
      );
      const elapsedMs = performance.now() - started;
      const withStatus = (status: number) => answers.filter((answer) => answer.status === status);
      const answered = withStatus(200);
      const refused = withStatus(429);
      expect(answered.length).toBeGreaterThanOrEqual(BURST);
      expect(answered.length).toBeLessThanOrEqual(admittedWithin(elapsedMs));
      expect(refused).toHaveLength(count - answered.length);
      return { proKey, answered, refused };
    } finally {
      agent.destroy();
    }
  }

  it('tools/list three times the burst at once: the burst (and what refills meanwhile) answered, the rest 429, nothing charged', async () => {
    const { proKey, answered, refused } = await flood({ method: 'tools/list' });
    for (const { headers, body } of answered) {
      expect(body.result?.tools).toHaveLength(Object.keys(TOOL_ROUTES).length);
      // The key's counters, as on every answer to an authenticated request.
      expect(headers['x-ratelimit-limit']).toBe('1000');
      expect(headers['x-credits-remaining']).toBe('10000');
    }
    for (const { headers, body } of refused) {
      expect(body).toMatchObject({
        error: 'Rate limit exceeded',
        message: expect.stringContaining(`${BURST} requests a second`),
        details: { limit: BURST, remaining: 0, retry_after: body.retry_after },
      });
      expect(headers['retry-after']).toBe(String(body.retry_after));
      expect(headers['x-ratelimit-limit']).toBe('1000');
    }
    expect(await countsOf(api, proKey)).toEqual({ hourly: 0, credits: 0 });
  });

  it('tools/call three times the burst at once: the burst (and what refills meanwhile) answered, each charged one credit by its REST call', async () => {
    const { proKey, answered } = await flood({
      method: 'tools/call',
      params: { name: 'get_company', arguments: { slug: 'alpha.io' } },
    });
    for (const { body } of answered) {
      expect(body.result?.isError ?? false).toBe(false);
      expect(body.result?.structuredContent).toMatchObject({ slug: 'alpha.io' });
    }
    expect(await countsOf(api, proKey)).toEqual({
      hourly: answered.length,
      credits: answered.length,
    });
  });
});

describe('the HTTP endpoint', () => {
  const initialize = (headers: Record<string, string>) =>
    postMcp(
      mcpUrl,
      {
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'curl', version: '1' },
        },
      },
      headers,
    );

  it('answers 401 in the general error shape without a key or with a bad one, as the REST API does', async () => {
    const wrongKey = `pi_${'W'.repeat(43)}`;
    const attempts: Record<string, string>[] = [{}, { authorization: `Bearer ${wrongKey}` }];
    for (const headers of attempts) {
      const response = await initialize(headers);
      const rest = await getJson<GeneralErrorBody>(api, '/api/companies', null, headers);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      const body = (await response.json()) as GeneralErrorBody;
      expect(body).toEqual(rest.body);
      expect(body.error).toBe('Unauthorized');
      expect(JSON.stringify(body)).not.toContain(wrongKey);
    }
  });

  it('is stateless: no session id, and GET (a stream) and DELETE (a session) get 405', async () => {
    const response = await pastBurstLimit(() => initialize({ authorization: `Bearer ${key}` }));
    expect(response.status).toBe(200);
    expect(response.headers.has('mcp-session-id')).toBe(false);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.json()).toMatchObject({
      id: 1,
      result: { serverInfo: { name: 'pricing-intelligence' } },
    });
    for (const method of ['GET', 'DELETE']) {
      const refused = await fetch(mcpUrl, { method, headers: { authorization: `Bearer ${key}` } });
      expect(refused.status).toBe(405);
      expect(refused.headers.get('allow')).toBe('POST');
      expect(await refused.json()).toMatchObject({ error: 'Method Not Allowed' });
    }
  });

  it('approves no preflight: browsers on other origins may not call it, as the API', async () => {
    const response = await fetch(mcpUrl, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://assistant.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(response.status).toBe(404);
    for (const header of response.headers.keys()) expect(header).not.toMatch(/^access-control-/);
  });

  it('refuses a body over 64 KB with 413 in the general shape', async () => {
    const response = await postWithKey({
      id: 1,
      method: 'ping',
      params: { padding: 'p'.repeat(65 * 1024) },
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: 'Payload Too Large' });
  });

  it('refuses a JSON-RPC array with 400 and error -32600, answering none of its messages', async () => {
    const before = await countsOf(api, key);
    const response = await postWithKey([
      {
        id: 1,
        method: 'tools/call',
        params: { name: 'get_company', arguments: { slug: 'alpha.io' } },
      },
      { id: 2, method: 'tools/list' },
    ]);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: expect.stringMatching(/one JSON-RPC message/) },
    });
    expect(await countsOf(api, key)).toEqual(before);
  });

  it('is not in the OpenAPI document', async () => {
    const document = (await (await api.request('/api/openapi.json')).json()) as OpenApiDocument;
    expect(Object.keys(document.paths).filter((path) => path.includes('mcp'))).toEqual([]);
  });

  // Last: it leaves this address refused for bad keys for the rest of the minute.
  it('counts failed authentications against the client address together with the REST API', async () => {
    const wrongKey = { authorization: `Bearer pi_${'X'.repeat(43)}` };
    let refused = await initialize(wrongKey);
    for (let attempt = 0; attempt < 40 && refused.status === 401; attempt++) {
      refused = await initialize(wrongKey);
    }
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: 'Rate limit exceeded' });
    const rest = await fetch(`${api.baseUrl}/api/companies`, { headers: wrongKey });
    expect(rest.status).toBe(429);
  });
});

/** What /mcp answers over HTTP: a JSON-RPC response (200) or the general error body (429). */
interface McpHttpAnswer {
  result?: { tools?: unknown[]; isError?: boolean; structuredContent?: Record<string, unknown> };
  error?: string;
  message?: string;
  details?: Record<string, unknown>;
  retry_after?: number;
}

/** A request through `agent` with node:http: its status, headers and JSON body. */
function send(
  agent: Agent,
  method: string,
  url: URL,
  body?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: McpHttpAnswer }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, agent, headers }, (response) => {
      let text = '';
      response
        .setEncoding('utf8')
        .on('data', (chunk: string) => (text += chunk))
        .on('end', () =>
          resolve({
            status: response.statusCode!,
            headers: response.headers,
            body: JSON.parse(text) as McpHttpAnswer,
          }),
        );
    });
    request.on('error', reject).end(body);
  });
}

interface DocumentedParameter {
  name: string;
  in: string;
  required?: boolean;
  schema: JsonProperty;
}

interface OpenApiDocument {
  paths: Record<string, { get: { parameters?: DocumentedParameter[] } }>;
}

interface JsonProperty {
  type?: string;
  description?: string;
  pattern?: string;
  enum?: string[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
}

interface JsonObjectSchema {
  properties: Record<string, JsonProperty>;
  required?: string[];
}
