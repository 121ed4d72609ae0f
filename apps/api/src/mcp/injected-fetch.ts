import type { FastifyInstance, FastifyRequest, InjectOptions } from 'fastify';

/** Statuses whose answer has no body, which a Response may not be given. */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * A fetch that sends each request into this process's own HTTP pipeline (Fastify's inject) on
 * behalf of `caller`: every hook a client's request meets runs (the read lane, authentication,
 * metering and its settlement, the ETag step, metrics), no socket is opened, and the process
 * need not know the address it is reached at. The caller's address goes along, so failed
 * authentications count against the client, and its request id, so the logs tie the calls
 * to the MCP request that made them.
 */
export function injectedFetch(fastify: FastifyInstance, caller: FastifyRequest): typeof fetch {
  return async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const answer = await fastify.inject({
      method: request.method as InjectOptions['method'],
      url: `${url.pathname}${url.search}`,
      headers: { ...Object.fromEntries(request.headers), 'x-request-id': caller.id },
      payload: body,
      remoteAddress: caller.ip,
    });
    const status = answer.statusCode;
    return new Response(NULL_BODY_STATUSES.has(status) ? null : answer.rawPayload, {
      status,
      statusText: answer.statusMessage,
      headers: webHeaders(answer.headers),
    });
  };
}

/** Node's headers (a name to a value or a list of values) as the fetch API's Headers. */
export function webHeaders(
  nodeHeaders: Record<string, string | number | string[] | undefined>,
): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(nodeHeaders)) {
    for (const one of [value ?? []].flat()) headers.append(name, String(one));
  }
  return headers;
}
