import type { ApiKeyPrincipal } from '#app/access';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the key guards once the request's key is known to be valid. */
    apiKey?: ApiKeyPrincipal;
  }
}
