import { lookup } from 'node:dns/promises';
import {
  ipLiteral,
  isPublicAddress,
  notOnlyPublicAddresses,
  notPublicAddress,
} from './public-address.js';

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** Resolves a host name to its addresses (a port, so that tests can resolve without DNS). */
export type HostResolver = (hostname: string) => Promise<string[]>;

/** How long a registration waits for DNS before it calls the host unresolvable. */
const RESOLVE_TIMEOUT_MS = 5_000;

const resolveHost: HostResolver = async (hostname) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('DNS timeout')), RESOLVE_TIMEOUT_MS);
  });
  try {
    const entries = await Promise.race([lookup(hostname, { all: true }), timeout]);
    return entries.map((entry) => entry.address);
  } finally {
    clearTimeout(timer);
  }
};

/**
 * Why `url` cannot receive webhooks (the rule it breaks), or null when it can: an absolute https
 * URL without credentials whose host is, or resolves only to, public addresses. `allowPrivate`
 * lifts the https and public-address rules (development and tests), never the others.
 */
export async function webhookUrlProblem(
  url: string,
  { allowPrivate, resolve = resolveHost }: { allowPrivate: boolean; resolve?: HostResolver },
): Promise<string | null> {
  if (url.length > MAX_WEBHOOK_URL_LENGTH) {
    return `url is longer than ${MAX_WEBHOOK_URL_LENGTH} characters`;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'url is not an absolute URL';
  }
  const schemes = allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(parsed.protocol)) {
    return allowPrivate ? 'url must be http or https' : 'url must be https';
  }
  // Credentials in a URL end up in logs and dashboards; a receiver checks the signature instead.
  if (parsed.username || parsed.password) return 'url must not hold a user name or password';
  if (allowPrivate) return null;
  const literal = ipLiteral(parsed.hostname);
  if (literal) return isPublicAddress(literal) ? null : `url's ${notPublicAddress(literal)}`;
  // One refusal whether the host resolves to a private address or not at all: two would tell a
  // caller which internal names exist.
  const addresses = await resolve(parsed.hostname).catch(() => []);
  return addresses.length > 0 && addresses.every(isPublicAddress)
    ? null
    : `url's ${notOnlyPublicAddresses(parsed.hostname)}`;
}
