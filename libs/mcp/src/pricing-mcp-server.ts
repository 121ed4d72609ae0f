import type { PricingClient } from '#app/client';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PRICING_TOOLS, type RestCall } from './pricing-tools.js';

/** How the server introduces itself; the version is the tool set's, as the API document's. */
const MCP_SERVER_INFO = { name: 'pricing-intelligence', version: '1.0.0' };

/** The service's two error bodies: `{error, code, details?}` and `{error, message, details?}`. */
interface ErrorBody {
  error?: unknown;
  code?: unknown;
  message?: unknown;
  details?: unknown;
}

/**
 * An MCP server whose tools call the pricing API through `client`, one metered REST call per
 * tool call: the REST body is the tool's result (as JSON text and as structured content), a
 * refused call its error. Stateless: a server may serve one HTTP request and be dropped.
 */
export function createPricingMcpServer(client: PricingClient): McpServer {
  const server = new McpServer(MCP_SERVER_INFO);
  for (const tool of PRICING_TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.parameters,
        annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      },
      async (args: Record<string, unknown>) => {
        const call = tool.call(args);
        if ('refused' in call) return toolError(call.refused.code, call.refused.message);
        return callApi(client, call);
      },
    );
  }
  return server;
}

async function callApi(client: PricingClient, call: RestCall): Promise<CallToolResult> {
  // The tool declarations hold each route's parameter names (pricing-tools.ts); the path values
  // have matched their patterns there, the query values go as given, for the API to judge.
  const get = client.GET as (
    route: string,
    init: { params: { path: object; query: object } },
  ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  let outcome;
  try {
    outcome = await get(call.route, { params: { path: call.path, query: call.query } });
  } catch (error) {
    return toolError(
      'Service Unavailable',
      `The pricing API could not be reached: ${(error as Error).message}`,
    );
  }
  const { data, error, response } = outcome;
  if (response.ok) {
    return {
      content: [{ type: 'text', text: JSON.stringify(data) }],
      structuredContent: data as Record<string, unknown>,
    };
  }
  return refusal(response, error);
}

/**
 * A refused call: its text starts with the REST code (the coded shape) or the error category
 * (the general shape), then the message, then the details on a line of their own.
 */
function refusal(response: Response, error: unknown): CallToolResult {
  if (
    typeof error !== 'object' ||
    error === null ||
    typeof (error as ErrorBody).error !== 'string'
  ) {
    // Not the service's own answer (a proxy's page, say).
    return toolError(`HTTP ${response.status}`, response.statusText || 'The API refused the call');
  }
  const body = error as ErrorBody;
  const [lead, message] =
    typeof body.code === 'string' ? [body.code, body.error] : [body.error, body.message];
  return toolError(String(lead), String(message), body);
}

function toolError(lead: string, message: string, body?: ErrorBody): CallToolResult {
  const details = body?.details === undefined ? '' : `\n${JSON.stringify(body.details)}`;
  return {
    isError: true,
    content: [{ type: 'text', text: `${lead}: ${message}${details}` }],
    ...(body ? { structuredContent: body as Record<string, unknown> } : {}),
  };
}
