import { expect } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { records } from './records.js';

/*
 * What the MCP tests of both transports share: a small catalogue, one call of each tool with
 * the REST request it stands for, and the patience with burst refusals a client needs.
 */

/** Three companies, one with two pricing versions: enough for every tool to answer. */
export const MCP_CATALOGUE = [
  records.company('alpha.io', { name: 'Alpha', category: 'Communication' }),
  records.company('beta.io', { name: 'Beta', category: 'Communication' }),
  records.company('gamma.io', { name: 'Gamma', category: 'Communication' }),
  records.page('alpha.io'),
  records.page('beta.io'),
  records.page('gamma.io'),
  records.scrape('alpha.io', '', '20250105'),
  records.scrape('alpha.io', '', '20250301'),
  records.scrape('beta.io', '', '20250110'),
  records.scrape('gamma.io', '', '20250105'),
  records.pricing('alpha.io', '', '20250105', 10),
  records.pricing('alpha.io', '', '20250301', 12),
  records.pricing('beta.io', '', '20250110', 20),
  records.pricing('gamma.io', '', '20250105', 30),
];

/** Each tool once (get_files both ways), with the path after /v1 of the REST call it makes. */
export const TOOL_CALLS: [name: string, args: Record<string, unknown>, restPath: string][] = [
  [
    'search_companies',
    { category: 'communication', limit: 2 },
    '/api/companies?category=communication&limit=2',
  ],
  ['get_company', { slug: 'alpha.io', include: 'pages' }, '/api/companies/alpha.io?include=pages'],
  ['get_pricing', { slug: 'alpha', as_of: '20250201' }, '/api/pricing/alpha?as_of=20250201'],
  [
    'diff_pricing',
    { slug: 'alpha.io', from: '20250105', to: '20250301' },
    '/api/pricing/alpha.io/diff?from=20250105&to=20250301',
  ],
  ['list_changes', { company: 'alpha.io', limit: 10 }, '/api/changes?company=alpha.io&limit=10'],
  [
    'search_plans',
    { max_monthly: 15, sort: '-monthly' },
    '/api/plans?max_monthly=15&sort=-monthly',
  ],
  [
    'pricing_series',
    { slug: 'alpha.io', from: '20250101', to: '20250401', step: 'month' },
    '/api/pricing/alpha.io/series?from=20250101&to=20250401&step=month',
  ],
  [
    'price_benchmarks',
    { category: 'communication', as_of: '20250401', company: 'alpha.io' },
    '/api/benchmarks?category=communication&as_of=20250401&company=alpha.io',
  ],
  [
    'compare_pricing',
    { slugs: 'beta,alpha.io', as_of: '20250201', currency: 'eur' },
    '/api/compare?slugs=beta,alpha.io&as_of=20250201&currency=eur',
  ],
  [
    'price_index',
    { category: 'communication', from: '20250101', to: '20250401', step: 'quarter' },
    '/api/benchmarks/series?category=communication&from=20250101&to=20250401&step=quarter',
  ],
  ['get_files', { slug: 'alpha.io', version: '20250301' }, '/api/files/alpha.io/version/20250301'],
  ['get_files', { slug: 'alpha.io', period: '2025Q1' }, '/api/files/alpha.io/period/2025Q1'],
];

/**
 * Arguments whose path parameter would make the tool's REST path name another route (the URL
 * parser resolves a dot segment), with the parameter each tool refuses before any call.
 */
export const PATH_ESCAPES: [name: string, args: Record<string, unknown>, parameter: string][] = [
  ['get_pricing', { slug: '..' }, 'slug'],
  ['get_pricing', { slug: '../companies' }, 'slug'],
  ['get_company', { slug: '..' }, 'slug'],
  ['diff_pricing', { slug: '..', from: '20250105' }, 'slug'],
  ['get_files', { slug: 'alpha.io', version: '..' }, 'version'],
  ['get_files', { slug: '..', period: '2025Q1' }, 'slug'],
];

/**
 * Calls the tool with arguments of PATH_ESCAPES and checks it is refused before any REST call:
 * the refusal names the parameter, no REST answer is behind it (a refused REST call's body would
 * be the structured content), and the key's counts do not move.
 */
export async function expectRefusedBeforeAnyCall(
  client: Client,
  [name, args, parameter]: (typeof PATH_ESCAPES)[number],
  counts: () => Promise<unknown>,
): Promise<void> {
  const before = await counts();
  const result = await callTool(client, name, args);
  expect(result.isError).toBe(true);
  expect(textOf(result)).toMatch(new RegExp(`^INVALID_PARAMETER: ${parameter} `));
  expect(result.structuredContent).toBeUndefined();
  expect(await counts()).toEqual(before);
}

/**
 * A tool call; a burst refusal of its REST call (which refused tool calls and the usage reads
 * count against) is waited out and the call made again, as pastBurstLimit does for requests.
 * The wait is for two burst units: the /mcp request takes one, and a REST call refused on its
 * merits another (sent again as soon as one unit is back, the /mcp request would take it, and
 * the REST call would be refused for the burst again, time after time).
 */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  for (;;) {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const details = result.structuredContent?.details as
      { reset_at?: string; limit?: number } | undefined;
    const waitMs = Date.parse(details?.reset_at ?? '') - Date.now();
    if (!result.isError || !(waitMs <= 1_000)) return result;
    const oneUnitMs = 1_000 / (details?.limit ?? 1);
    await new Promise((resolve) => setTimeout(resolve, Math.max(waitMs, 0) + oneUnitMs + 5));
  }
}

/** The text content of a tool result. */
export function textOf(result: CallToolResult): string {
  const [first] = result.content;
  if (first?.type !== 'text') throw new Error(`no text content: ${JSON.stringify(result)}`);
  return first.text;
}

/**
 * One JSON-RPC message POSTed to an MCP endpoint by hand, as curl would send it (or an array of
 * them, which the endpoint refuses).
 */
export function postMcp(
  url: URL,
  message: Record<string, unknown> | Record<string, unknown>[],
  headers: Record<string, string> = {},
): Promise<Response> {
  const withVersion = (one: Record<string, unknown>) => ({ jsonrpc: '2.0', ...one });
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(Array.isArray(message) ? message.map(withVersion) : withVersion(message)),
  });
}
