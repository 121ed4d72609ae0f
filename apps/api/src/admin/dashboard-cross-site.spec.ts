import { describe, expect, it } from 'vitest';
import { crossSiteRefusal, type RequestSite } from './dashboard-cross-site.js';

/** A PUT that reached http://dashboard.example:3000 (scheme and Host as Fastify gives them). */
function request(headers: Record<string, string>, overrides: Partial<RequestSite> = {}) {
  return {
    method: 'PUT',
    protocol: 'http',
    host: 'dashboard.example:3000',
    headers,
    ...overrides,
  } as RequestSite;
}

describe('crossSiteRefusal', () => {
  it('lets through a change from the origin the request reached, or from no browser at all', () => {
    expect(crossSiteRefusal(request({}))).toBeNull();
    expect(crossSiteRefusal(request({ origin: 'http://dashboard.example:3000' }))).toBeNull();
    expect(crossSiteRefusal(request({ 'sec-fetch-site': 'same-origin' }))).toBeNull();
    expect(crossSiteRefusal(request({ 'sec-fetch-site': 'none' }))).toBeNull();
  });

  it('compares origins as a browser serialises them: lower case, no default port', () => {
    const reached = { protocol: 'https' as const, host: 'Dashboard.Example:443' };
    expect(crossSiteRefusal(request({ origin: 'https://dashboard.example' }, reached))).toBeNull();
    expect(
      crossSiteRefusal(request({ origin: 'http://dashboard.example' }, reached)),
    ).not.toBeNull();
  });

  it.each([
    ['another host', 'https://evil.example'],
    ['another scheme', 'https://dashboard.example:3000'],
    ['another port', 'http://dashboard.example:3001'],
    ['a sibling subdomain', 'http://other.dashboard.example:3000'],
    ['null (a sandboxed frame, a redirect across sites)', 'null'],
    ['two values', 'http://dashboard.example:3000, https://evil.example'],
  ])('refuses an Origin naming %s, with the origin it expected', (_name, origin) => {
    const refusal = crossSiteRefusal(request({ origin }));
    expect(refusal).toMatchObject({ status: 403, code: 'CROSS_SITE_REQUEST' });
    expect(refusal?.details).toEqual({
      code: 'CROSS_SITE_REQUEST',
      header: 'Origin',
      provided: origin,
      expected: 'http://dashboard.example:3000',
    });
  });

  it.each(['cross-site', 'same-site', 'same-origin, cross-site', 'anything'])(
    'refuses Sec-Fetch-Site: %s (same-site too: a sibling subdomain can be someone else)',
    (site) => {
      const refusal = crossSiteRefusal(request({ 'sec-fetch-site': site }));
      expect(refusal?.details).toEqual({
        code: 'CROSS_SITE_REQUEST',
        header: 'Sec-Fetch-Site',
        provided: site,
        valid_values: ['same-origin', 'none'],
      });
    },
  );

  it('refuses a same-origin Origin that Sec-Fetch-Site says came from another site', () => {
    const headers = { origin: 'http://dashboard.example:3000', 'sec-fetch-site': 'cross-site' };
    expect(crossSiteRefusal(request(headers))?.details).toMatchObject({ header: 'Sec-Fetch-Site' });
  });

  it('refuses every Origin when the Host makes no origin', () => {
    const refusal = crossSiteRefusal(request({ origin: 'null' }, { host: '' }));
    expect(refusal?.details).toMatchObject({ provided: 'null', expected: null });
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('checks %s', (method) => {
    expect(
      crossSiteRefusal(request({ origin: 'https://evil.example' }, { method })),
    ).not.toBeNull();
  });

  it.each(['GET', 'HEAD'])('lets %s through from anywhere: it changes nothing', (method) => {
    const headers = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
    expect(crossSiteRefusal(request(headers, { method }))).toBeNull();
  });
});
