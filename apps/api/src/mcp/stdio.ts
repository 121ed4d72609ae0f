import { createPricingClient } from '#app/client';
import { ConfigError, loadMcpClientConfig } from '#app/config';
import { createPricingMcpServer } from '#app/mcp';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

/**
 * The MCP server over stdio (`npm run --silent mcp`), for a desktop assistant that starts it:
 * stdout carries MCP messages only, everything else goes to stderr. Its tools call the API at
 * PRICING_API_URL with PRICING_API_KEY; without a key it does not start (exit 1), so the
 * client shows the reason at once instead of an assistant meeting it on every call.
 */
async function main(): Promise<void> {
  const { apiUrl, apiKey } = loadMcpClientConfig();
  const server = createPricingMcpServer(createPricingClient({ apiUrl, apiKey }));
  await server.connect(new StdioServerTransport());
  console.error(`Pricing MCP server on stdio, calling ${withoutCredentials(apiUrl)}`);
}

/** A URL may carry a user and password; the log shows neither. */
function withoutCredentials(url: string): string {
  const shown = new URL(url);
  shown.username = '';
  shown.password = '';
  return shown.href;
}

main().catch((error: Error) => {
  console.error(error instanceof ConfigError ? error.message : `MCP server failed: ${error.stack}`);
  process.exit(1);
});
