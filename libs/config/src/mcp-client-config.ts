import { ConfigError } from './config.error.js';

/** What the stdio MCP server needs: the API it calls and the key it calls it with. */
interface McpClientConfig {
  /** The API's base URL, ending in `/v1`. */
  apiUrl: string;
  apiKey: string;
}

const DEFAULT_API_URL = 'http://127.0.0.1:3000/v1';

/**
 * The stdio MCP server's settings: `PRICING_API_KEY` (required) and `PRICING_API_URL` (default
 * `http://127.0.0.1:3000/v1`). Throws a ConfigError naming each bad variable, as loadConfig does:
 * a server that could only fail every call should not start.
 */
export function loadMcpClientConfig(
  env: Record<string, string | undefined> = process.env,
): McpClientConfig {
  const problems: string[] = [];
  // An empty variable counts as unset, as in loadConfig.
  const apiKey = env.PRICING_API_KEY?.trim() || undefined;
  const apiUrl = env.PRICING_API_URL?.trim() || DEFAULT_API_URL;
  if (apiKey === undefined) {
    problems.push(
      'PRICING_API_KEY: an API key is required (npm run cli -- keys:create --name mcp --plan pro --scopes read)',
    );
  }
  if (!isApiBaseUrl(apiUrl)) {
    problems.push(
      `PRICING_API_URL: must be the API's http(s) base URL ending in /v1, such as ${DEFAULT_API_URL}`,
    );
  }
  if (problems.length > 0 || apiKey === undefined) {
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return { apiUrl, apiKey };
}

function isApiBaseUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.pathname.replace(/\/+$/, '').endsWith('/v1') &&
    url.search === '' &&
    url.hash === ''
  );
}
