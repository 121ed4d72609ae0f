import { createHmac } from 'node:crypto';
import { secretsEqual } from '#app/access';

/** Where the queue dashboard lives; its session cookie is scoped to this path. */
export const DASHBOARD_PATH = '/v1/admin/queues';
export const DASHBOARD_LOGIN_PATH = `${DASHBOARD_PATH}/login`;
export const DASHBOARD_LOGOUT_PATH = `${DASHBOARD_PATH}/logout`;
export const DASHBOARD_SESSION_COOKIE = 'queue_dashboard_session';

/** What the session cookie is an HMAC of; a new label would end every session. */
const SESSION_LABEL = 'pricing-intelligence queue dashboard session v1';

/**
 * The session cookie's value: an HMAC keyed by the admin token, never the token itself, so a
 * leaked cookie does not reveal the token and rotating ADMIN_TOKEN ends every session.
 */
export function dashboardSessionValue(adminToken: string): string {
  return createHmac('sha256', adminToken).update(SESSION_LABEL).digest('base64url');
}

export function isDashboardSession(presented: string | undefined, adminToken: string): boolean {
  return presented !== undefined && secretsEqual(presented, dashboardSessionValue(adminToken));
}

/**
 * Where to go after logging in: a page of the dashboard the browser asked for, or the
 * dashboard itself. Anything else (another path, another host, `//evil.example`) is refused,
 * so the login cannot be used as an open redirect.
 */
export function dashboardReturnPath(next: unknown): string {
  const home = `${DASHBOARD_PATH}/`;
  if (typeof next !== 'string' || !next.startsWith(DASHBOARD_PATH)) return home;
  const rest = next.slice(DASHBOARD_PATH.length);
  if (rest !== '' && !rest.startsWith('/') && !rest.startsWith('?')) return home;
  if (/[\\\s]|\/\/|\/\.\.?(\/|$|\?)/.test(next) || /[^\x21-\x7e]/.test(next)) return home;
  if (next.startsWith(DASHBOARD_LOGIN_PATH) || next.startsWith(DASHBOARD_LOGOUT_PATH)) return home;
  return next;
}
