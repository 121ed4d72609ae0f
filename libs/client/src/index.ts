import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { components, operations, paths } from './schema.js';
export { GET_PARAMETERS } from './parameters.js';

export interface PricingClientOptions {
  /**
   * The API's base URL as the service prints it, ending in `/v1`: `http://127.0.0.1:3000/v1`.
   * The document's paths carry the `/v1` themselves, so the client calls the URL before it.
   */
  apiUrl: string;
  /** Sent as `Authorization: Bearer <key>` on every call; never put in a URL. */
  apiKey?: string;
  /** A fetch of your own (a proxy, a test recorder); the global fetch by default. */
  fetch?: typeof globalThis.fetch;
}

/** A client whose every path, parameter and answer is typed from the OpenAPI document. */
export type PricingClient = Client<paths>;

/**
 * The typed client, as openapi-fetch makes it: `client.GET('/v1/api/companies/{slug}',
 * { params: { path: { slug } } })` resolves to `{ data, error, response }`, `data` typed by the
 * documented 200 answer and `error` by the documented error answers.
 */
export function createPricingClient({
  apiUrl,
  apiKey,
  fetch,
}: PricingClientOptions): PricingClient {
  return createClient<paths>({
    baseUrl: serverRoot(apiUrl),
    fetch,
    headers: apiKey === undefined ? undefined : { authorization: `Bearer ${apiKey}` },
  });
}

/** The credits left after a call, from its `X-Credits-Remaining` header (null when absent). */
export function creditsRemaining(response: Response): number | null {
  const header = response.headers.get('x-credits-remaining');
  return header === null ? null : Number(header);
}

function serverRoot(apiUrl: string): string {
  const url = apiUrl.replace(/\/+$/, '');
  if (!url.endsWith('/v1')) {
    throw new Error(`The API URL ends in /v1 (http://127.0.0.1:3000/v1), not ${apiUrl}`);
  }
  return url.slice(0, -'/v1'.length);
}
