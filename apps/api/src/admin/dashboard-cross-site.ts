import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error.js';

/** Methods that only read: from another site they change nothing, and links to the board work. */
const READING_METHODS = ['GET', 'HEAD'];

/**
 * Sec-Fetch-Site values of a request made by the dashboard's own pages (`same-origin`) or by the
 * user (`none`: typed, bookmarked). Not `same-site`: a sibling subdomain can be someone else's.
 */
const OWN_FETCH_SITES = ['same-origin', 'none'];

/** Told in `details.code`: the general error shape has no code of its own. */
export const CROSS_SITE_REQUEST = 'CROSS_SITE_REQUEST';

/** What the check reads of a request. */
export type RequestSite = Pick<FastifyRequest, 'method' | 'headers' | 'protocol' | 'host'>;

/**
 * The 403 of a request that could change something (every method but GET and HEAD) which a
 * browser sent on behalf of another site, or null. Browsers name the site a request comes from
 * in `Origin` and `Sec-Fetch-Site`; a request with neither is not a browser's cross-site one.
 */
export function crossSiteRefusal(request: RequestSite): ApiError | null {
  if (READING_METHODS.includes(request.method)) return null;
  const origin = request.headers.origin;
  if (origin !== undefined) {
    const reached = originReached(request);
    // `Origin: null` (a sandboxed frame, a redirect across sites) never matches: `reached` is an
    // http(s) origin, or null itself, which no string equals.
    if (origin !== reached) {
      return refusal({ header: 'Origin', provided: origin, expected: reached });
    }
  }
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite !== undefined && !OWN_FETCH_SITES.includes(String(fetchSite))) {
    return refusal({
      header: 'Sec-Fetch-Site',
      provided: String(fetchSite),
      valid_values: OWN_FETCH_SITES,
    });
  }
  return null;
}

/**
 * The origin the request reached, serialised as a browser serialises `Origin` (lower case, no
 * default port): its scheme and host as Fastify gives them, which honour a trusted proxy's
 * `X-Forwarded-Proto` and `X-Forwarded-Host`. Null when they make no http(s) origin.
 */
function originReached(request: RequestSite): string | null {
  try {
    const { origin } = new URL(`${request.protocol}://${request.host}`);
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

function refusal(details: Record<string, unknown>): ApiError {
  return new ApiError(
    403,
    CROSS_SITE_REQUEST,
    'The queue dashboard takes changes only from its own pages, not from another site',
    { code: CROSS_SITE_REQUEST, ...details },
  );
}
