import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Set by a handler whose answer is addressed by a version or a period that has ended: how
     * long a client may reuse it before revalidating it with its ETag.
     */
    cacheForSeconds?: number;
    /** The kept answer the handler sends, when it sends one: its ETag is not worked out again. */
    keptAnswer?: KeptAnswer;
  }
}

/**
 * A kept answer the handler sends: its ETag, whether it is past its lifetime (sent while it is
 * read again), and the read cache's key for it while it is kept.
 */
export interface KeptAnswer {
  etag: string;
  stale?: boolean;
  key?: string;
}

/** How long a client may reuse an immutable answer before revalidating it with its ETag. */
const MAX_AGE_SECONDS = 3600;

/**
 * The answer cannot change. `kept`: the kept answer it is, whose ETag (etagOf its JSON text)
 * is not worked out again.
 */
export function markImmutable(request: FastifyRequest, kept?: KeptAnswer): void {
  request.cacheForSeconds = MAX_AGE_SECONDS;
  noteKept(request, kept);
}

/** Whether the handler marked the answer immutable (markImmutable). */
export function isMarkedImmutable(request: FastifyRequest): boolean {
  return request.cacheForSeconds === MAX_AGE_SECONDS;
}

/**
 * The answer is addressed by a version or an ended period but may still grow (no file of it
 * has arrived yet): it carries an ETag, and a client revalidates it every time (max-age=0),
 * getting a 304 while it is unchanged and the files as soon as they come.
 */
export function markRevalidated(request: FastifyRequest, kept?: KeptAnswer): void {
  request.cacheForSeconds = 0;
  noteKept(request, kept);
}

function noteKept(request: FastifyRequest, kept: KeptAnswer | undefined): void {
  request.keptAnswer = kept;
}

/** The body an onSend hook is handed, when it is one that is sent as it is (text or bytes). */
export function sentBody(payload: unknown): string | Buffer | null {
  return typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : null;
}

/** A strong ETag of a response body. */
export function etagOf(body: string | Buffer): string {
  return `"${hash('sha256', body, 'base64url').slice(0, 27)}"`;
}

/**
 * Fastify onSend hook: a cacheable 200 gets an ETag (a hash of the body) and Cache-Control;
 * a matching If-None-Match turns it into an empty 304. It runs after Nest has set the status,
 * which an interceptor could not change.
 */
export async function immutableResponseHook(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  const maxAge = request.cacheForSeconds;
  const body = sentBody(payload);
  if (maxAge === undefined || reply.statusCode !== 200 || body === null) return payload;
  const etag = request.keptAnswer?.etag ?? etagOf(body);
  void reply.header('etag', etag);
  void reply.header('cache-control', `private, max-age=${maxAge}`);
  const presented = request.headers['if-none-match'];
  const tags = typeof presented === 'string' ? presented.split(',').map((tag) => tag.trim()) : [];
  if (tags.includes(etag) || tags.includes(`W/${etag}`) || tags.includes('*')) {
    void reply.code(304);
    void reply.removeHeader('content-type');
    return '';
  }
  return payload;
}
