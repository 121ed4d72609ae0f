import { describe, expect, it } from 'vitest';
import {
  DASHBOARD_SESSION_SECONDS,
  dashboardReturnPath,
  dashboardSessionValue,
  isDashboardSession,
} from './dashboard-session.js';

const TOKEN = 'admin-token-0123456789abcdef';

describe('dashboardSessionValue', () => {
  const issued = new Date('2026-11-22T10:00:00.000Z');
  const later = (seconds: number) => new Date(issued.getTime() + seconds * 1000);

  it('is the issue time and an HMAC of it, not the token', () => {
    const value = dashboardSessionValue(TOKEN, issued);
    expect(value).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
    expect(value.split('.')[0]).toBe(String(issued.getTime() / 1000));
    expect(value).not.toContain(TOKEN);
  });

  it('changes with the token, so rotating ADMIN_TOKEN ends every session', () => {
    const session = dashboardSessionValue(TOKEN, issued);
    expect(isDashboardSession(session, TOKEN, issued)).toBe(true);
    expect(isDashboardSession(session, `${TOKEN}-rotated`, issued)).toBe(false);
    expect(isDashboardSession(TOKEN, TOKEN, issued)).toBe(false);
    expect(isDashboardSession(undefined, TOKEN, issued)).toBe(false);
  });

  it('ends twelve hours after the login', () => {
    const session = dashboardSessionValue(TOKEN, issued);
    expect(isDashboardSession(session, TOKEN, later(DASHBOARD_SESSION_SECONDS))).toBe(true);
    expect(isDashboardSession(session, TOKEN, later(DASHBOARD_SESSION_SECONDS + 1))).toBe(false);
    expect(isDashboardSession(session, TOKEN, later(-3600))).toBe(false);
  });

  it('refuses a session whose issue time was changed', () => {
    const [, mac] = dashboardSessionValue(TOKEN, issued).split('.');
    const extended = `${issued.getTime() / 1000 + 3600}.${mac}`;
    expect(isDashboardSession(extended, TOKEN, later(7200))).toBe(false);
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

  it('resolves encoded dot segments as a browser does: they may not leave the dashboard', () => {
    for (const next of [
      '/v1/admin/queues/%2e%2e/keys',
      '/v1/admin/queues/%2E%2e/keys',
      '/v1/admin/queues/.%2e/keys',
      '/v1/admin/queues/%2e./keys',
      '/v1/admin/queues/queue/%2e%2e/%2e%2e/%2e%2e/keys',
      '/v1/admin/queues/%2e%2e',
    ]) {
      expect(dashboardReturnPath(next), next).toBe('/v1/admin/queues/');
    }
    expect(dashboardReturnPath('/v1/admin/queues/queue/%2e%2e/queue/ingest?status=failed')).toBe(
      '/v1/admin/queues/queue/ingest?status=failed',
    );
  });

  it('refuses encoded slashes and backslashes, which something on the way may decode', () => {
    for (const next of [
      '/v1/admin/queues/..%2fkeys',
      '/v1/admin/queues/..%2Fkeys',
      '/v1/admin/queues/..%5ckeys',
      '/v1/admin/queues/..%5Ckeys',
      '/v1/admin/queues/%2f%2fevil.example',
    ]) {
      expect(dashboardReturnPath(next), next).toBe('/v1/admin/queues/');
    }
  });
});
