import type { FastifyRequest } from 'fastify';

/** The token of `Authorization: Bearer <token>`, if that is what the header holds. */
export function bearerToken(authorization: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
}

/** The API key a request carries: `Authorization: Bearer <key>` or `X-API-Key: <key>`. */
export function presentedApiKey(request: FastifyRequest): string | undefined {
  const bearer = bearerToken(request.headers.authorization);
  if (bearer !== undefined) return bearer;
  const header = request.headers['x-api-key'];
  return typeof header === 'string' && header.length > 0 ? header.trim() : undefined;
}
