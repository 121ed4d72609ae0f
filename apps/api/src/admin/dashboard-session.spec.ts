import { describe, expect, it } from 'vitest';
import {
  dashboardReturnPath,
  dashboardSessionValue,
  isDashboardSession,
} from './dashboard-session.js';

const TOKEN = 'admin-token-0123456789abcdef';

describe('dashboardSessionValue', () => {
  it('is an HMAC of the token, not the token, and the same for the same token', () => {
    const value = dashboardSessionValue(TOKEN);
    expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(value).not.toContain(TOKEN);
    expect(dashboardSessionValue(TOKEN)).toBe(value);
  });

  it('changes with the token, so rotating ADMIN_TOKEN ends every session', () => {
    const session = dashboardSessionValue(TOKEN);
    expect(isDashboardSession(session, TOKEN)).toBe(true);
    expect(isDashboardSession(session, `${TOKEN}-rotated`)).toBe(false);
    expect(isDashboardSession(TOKEN, TOKEN)).toBe(false);
    expect(isDashboardSession(undefined, TOKEN)).toBe(false);
  });
});

describe('dashboardReturnPath', () => {
  it('keeps a page of the dashboard', () => {
    expect(dashboardReturnPath('/v1/admin/queues')).toBe('/v1/admin/queues');
    expect(dashboardReturnPath('/v1/admin/queues/queue/ingest?status=failed')).toBe(
      '/v1/admin/queues/queue/ingest?status=failed',
    );
  });

  it('sends anything else to the dashboard itself: no open redirect', () => {
    for (const next of [
      undefined,
      42,
      '',
      'https://evil.example/v1/admin/queues',
      '//evil.example/v1/admin/queues',
      '/v1/admin/queues//evil.example',
      '/v1/admin/queues/../keys',
      '/v1/admin/queues/\\evil.example',
      '/v1/admin/queuesx',
      '/v1/admin/queues/login',
      '/v1/admin/queues/logout',
      '/v1/admin/queues/queue/a b',
    ]) {
      expect(dashboardReturnPath(next)).toBe('/v1/admin/queues/');
    }
  });
});
