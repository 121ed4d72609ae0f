import type { FastifyRequest } from 'fastify';

/** The API key a request carries: `Authorization: Bearer <key>` or `X-API-Key: <key>`. */
export function presentedApiKey(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match) return match[1];
  }
  const header = request.headers['x-api-key'];
  return typeof header === 'string' && header.length > 0 ? header.trim() : undefined;
}
