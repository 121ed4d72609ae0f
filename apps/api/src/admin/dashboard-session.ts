import { createHmac } from 'node:crypto';
import { secretsEqual } from '#app/access';

/** Where the queue dashboard lives; its session cookie is scoped to this path. */
export const DASHBOARD_PATH = '/v1/admin/queues';
export const DASHBOARD_LOGIN_PATH = `${DASHBOARD_PATH}/login`;
export const DASHBOARD_LOGOUT_PATH = `${DASHBOARD_PATH}/logout`;
export const DASHBOARD_SESSION_COOKIE = 'queue_dashboard_session';

/** What the session cookie is an HMAC of; a new label would end every session. */
const SESSION_LABEL = 'pricing-intelligence queue dashboard session v1';

/** How long a login lasts: the cookie's Max-Age, and the age past which the server refuses it. */
export const DASHBOARD_SESSION_SECONDS = 12 * 3600;

/** Allowance for API hosts whose clocks differ a little. */
const CLOCK_SKEW_SECONDS = 60;

function sessionMac(adminToken: string, issuedAt: number): string {
  return createHmac('sha256', adminToken)
    .update(`${SESSION_LABEL}:${issuedAt}`)
    .digest('base64url');
}

/**
 * The session cookie's value: when it was issued (Unix seconds) and an HMAC of that time keyed
 * by the admin token, never the token itself. A leaked cookie does not reveal the token, ends
 * after DASHBOARD_SESSION_SECONDS, and rotating ADMIN_TOKEN ends every session at once.
 */
export function dashboardSessionValue(adminToken: string, now = new Date()): string {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return `${issuedAt}.${sessionMac(adminToken, issuedAt)}`;
}

export function isDashboardSession(
  presented: string | undefined,
  adminToken: string,
  now = new Date(),
): boolean {
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(presented ?? '');
  if (!match) return false;
  const issuedAt = Number(match[1]);
  const age = now.getTime() / 1000 - issuedAt;
  if (age > DASHBOARD_SESSION_SECONDS || age < -CLOCK_SKEW_SECONDS) return false;
  return secretsEqual(match[2]!, sessionMac(adminToken, issuedAt));
}

/** Return paths are resolved against this, as a browser resolves them; only their path is kept. */
const RESOLVING_BASE = 'http://dashboard.invalid';

/**
 * Where to go after logging in: a page of the dashboard the browser asked for, or the
 * dashboard itself. The path is resolved as a browser resolves it (`%2e%2e` is `..` to the
 * WHATWG URL parser) and must stay under the dashboard; anything else (another path, another
 * host, `//evil.example`) is refused, so the login cannot be used as an open redirect. Encoded
 * slashes and backslashes and empty segments are refused too: a server or proxy on the way may
 * decode or collapse them into a path the browser did not resolve.
 */
export function dashboardReturnPath(next: unknown): string {
  const home = `${DASHBOARD_PATH}/`;
  // Visible ASCII only, and no backslash, which browsers read as a slash.
  if (typeof next !== 'string' || !next.startsWith('/') || /[^\x21-\x7e]|\\/.test(next)) {
    return home;
  }
  let resolved: URL;
  try {
    resolved = new URL(next, RESOLVING_BASE);
  } catch {
    return home;
  }
  const path = resolved.pathname;
  if (resolved.origin !== RESOLVING_BASE || /\/\/|%2f|%5c/i.test(path)) return home;
  if (path !== DASHBOARD_PATH && !path.startsWith(`${DASHBOARD_PATH}/`)) return home;
  if (path.startsWith(DASHBOARD_LOGIN_PATH) || path.startsWith(DASHBOARD_LOGOUT_PATH)) return home;
  return `${path}${resolved.search}`;
}
