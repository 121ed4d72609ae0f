import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by a handler whose 200 a client may reuse (cacheableFor): for how long. */
    cacheForSeconds?: number;
    /** The ETag of a kept answer the read lane sends, which is not worked out again. */
    keptEtag?: string;
  }
}

/**
 * How long a client may reuse an answer before revalidating it with its ETag. A set of scrape
 * files, or the earliest extraction of a period, may still grow (another scraper's scrape of
 * the same version, a late extraction): a minute at most, and not at all while it is empty (the
 * first scrape of a version may be on its way). One extraction, or the diff of two, never
 * changes once it exists.
 */
export const MAX_AGE_SECONDS = { empty: 0, mayGrow: 60, immutable: 3600 } as const;

/** The handler's 200 may be reused by a client for `seconds`, with an ETag to revalidate it. */
export function cacheableFor(request: FastifyRequest, seconds: number): void {
  request.cacheForSeconds = seconds;
}

/** The body an onSend hook is handed, when it is one that is sent as it is (text or bytes). */
export function sentBody(payload: unknown): string | Buffer | null {
  return typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : null;
}

/** A strong ETag of a response body. */
function etagOf(body: string | Buffer): string {
  return `"${hash('sha256', body, 'base64url').slice(0, 27)}"`;
}

/**
 * onSend, first: a cacheable 200 gets its ETag (a hash of the body, or the kept answer's) and
 * Cache-Control. It runs after Nest has set the status, which an interceptor could not see.
 */
export function addCachingHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): void {
  const maxAge = request.cacheForSeconds;
  const body = sentBody(payload);
  if (maxAge === undefined || reply.statusCode !== 200 || body === null) return;
  void reply.header('etag', request.keptEtag ?? etagOf(body));
  void reply.header('cache-control', `private, max-age=${maxAge}`);
}

/** Whether the request's If-None-Match names `etag` (strong, weak or `*`): it is answered 304. */
export function revalidates(request: FastifyRequest, etag: string): boolean {
  const presented = request.headers['if-none-match'];
  if (typeof presented !== 'string') return false;
  const tags = presented.split(',').map((tag) => tag.trim());
  return tags.includes(etag) || tags.includes(`W/${etag}`) || tags.includes('*');
}

/**
 * onSend, once the answer is kept: an If-None-Match that names the ETag turns the 200 into an
 * empty 304, which is not charged. Answers the payload to send.
 */
export function answerNotModified(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): unknown {
  const etag = reply.getHeader('etag');
  if (reply.statusCode !== 200 || typeof etag !== 'string' || !revalidates(request, etag)) {
    return payload;
  }
  void reply.code(304);
  void reply.removeHeader('content-type');
  return '';
}
