import type { ApiKeyPrincipal, Metering } from '#app/access';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the key guards once the request's key is known to be valid. */
    apiKey?: ApiKeyPrincipal;
    /** How the key guard metered the request: the counters for the headers, and what to refund. */
    metering?: Metering;
  }
}
