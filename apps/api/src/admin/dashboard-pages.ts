import {
  DASHBOARD_LOGIN_PATH,
  DASHBOARD_LOGOUT_PATH,
  DASHBOARD_PATH,
} from './dashboard-session.js';

/** No script, nothing from elsewhere, never framed: the pages only post their forms to this site. */
export const DASHBOARD_PAGES_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);
}

interface LoginPageOptions {
  /** Where to go after logging in (already checked by dashboardReturnPath). */
  next: string;
  /** Shown above the form: why the last attempt failed. */
  error?: string;
  /** No ADMIN_TOKEN is configured: explain instead of showing a form. */
  disabled?: boolean;
}

/** The queue dashboard's login page: one password field for the admin token. */
export function loginPage({ next, error, disabled = false }: LoginPageOptions): string {
  const body = disabled
    ? `<p class="error" role="alert">The queue dashboard is disabled: no admin token is configured.</p>
    <p>Set <code>ADMIN_TOKEN</code> (at least 16 characters) on the API process and restart it to
    enable the dashboard and the <code>/v1/admin</code> API.</p>`
    : `${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
    <form method="post" action="${DASHBOARD_LOGIN_PATH}">
      <label for="token">Admin token</label>
      <input id="token" name="token" type="password" autocomplete="current-password" required autofocus>
      <input type="hidden" name="next" value="${escapeHtml(next)}">
      <button type="submit">Log in</button>
    </form>
    <p class="hint">The value of <code>ADMIN_TOKEN</code>. Scripts can send
    <code>Authorization: Bearer &lt;ADMIN_TOKEN&gt;</code> instead.</p>`;
  return dashboardPage('log in', body);
}

/**
 * What bull-board's "Log out" link (a plain GET) opens: a button that posts the logout, so that
 * following a link, or a prefetch of it, never ends a session.
 */
export function logoutPage(): string {
  return dashboardPage(
    'log out',
    `<form method="post" action="${DASHBOARD_LOGOUT_PATH}">
      <p>End this browser's session of the queue dashboard?</p>
      <button type="submit">Log out</button>
    </form>
    <p class="hint"><a href="${DASHBOARD_PATH}/">Back to the queues</a></p>`,
  );
}

/** A page of the dashboard's own around `body` (HTML, its text already escaped). */
function dashboardPage(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="robots" content="noindex">
  <title>Queue dashboard: ${escapeHtml(title)}</title>
  <style>
    body { font-family: system-ui, sans-serif; background: #f4f5f7; color: #1f2933; margin: 0; }
    main { max-width: 24rem; margin: 12vh auto; background: #fff; padding: 2rem;
      border-radius: 8px; box-shadow: 0 1px 4px rgba(0, 0, 0, 0.12); }
    h1 { font-size: 1.25rem; margin-top: 0; }
    label { display: block; font-weight: 600; margin-bottom: 0.4rem; }
    input[type=password] { box-sizing: border-box; width: 100%; padding: 0.5rem; font-size: 1rem; }
    button { margin-top: 1rem; padding: 0.5rem 1.25rem; font-size: 1rem; cursor: pointer; }
    .error { color: #b42318; }
    .hint { color: #616e7c; font-size: 0.85rem; }
  </style>
</head>
<body>
  <main>
    <h1>Queue dashboard</h1>
    ${body}
  </main>
</body>
</html>
`;
}
