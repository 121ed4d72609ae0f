import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createPricingClient } from '#app/client';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { presentedApiKey } from '../auth/presented-key.js';
import { RequestAdmission, type AdmissionRule } from '../auth/request-admission.js';
import { ApiError } from '../errors/api-error.js';
import { sendErrorReply } from '../errors/error-body.filter.js';
import { injectedFetch, webHeaders } from './injected-fetch.js';

/** The MCP endpoint: beside the API, not under /v1, and not in the OpenAPI document. */
const MCP_PATH = '/mcp';

/**
 * Every /mcp request costs nothing but counts against the key's burst limit, as an uncharged
 * REST request does: initialize, tools/list and ping are free, not unbounded. No scope and no
 * plan feature: each tool call's REST call asks for those of its route.
 */
const MCP_ADMISSION: AdmissionRule = { charged: false };

/** JSON-RPC 2.0's code for a request that is not a valid request object. */
const JSON_RPC_INVALID_REQUEST = -32600;

/**
 * The tools' calls go to the routes under this base through injectedFetch, which keeps only
 * the path: the host is never resolved.
 */
const IN_PROCESS_API_URL = 'http://in-process/v1';

/**
 * The MCP SDK and the tools (some 8 MB of heap) are loaded by the first /mcp request rather
 * than by every API process at start: most processes never serve one, and an API process's
 * heap is its budget for answers (an export streams through 64 MB).
 */
let mcpModules:
  | Promise<
      [
        typeof import('#app/mcp'),
        typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
      ]
    >
  | undefined;
const loadMcpModules = () =>
  (mcpModules ??= Promise.all([
    import('#app/mcp'),
    import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
  ]));

/**
 * The MCP server over streamable HTTP at POST /mcp, stateless: each request gets its own server
 * and transport, answers in JSON (no stream stays open, no session id), and leaves nothing
 * behind, so any API process can take any request. Each request is admitted as an uncharged
 * REST request is (401 and 429 in the general error shape, failed authentications counted
 * against the client address, a burst unit taken, the key's counters on the answer), and
 * carries one JSON-RPC message. A tool call is then one REST call with the same key through
 * this process's own pipeline, metered, limited and charged exactly as that call is: the
 * /mcp request's own metering never charges, so it has nothing to give back either.
 * GET and DELETE, which open a stream or end a session, get 405.
 */
export function registerMcpEndpoint(app: NestFastifyApplication): void {
  const fastify: FastifyInstance = app.getHttpAdapter().getInstance();
  const admission = app.get(RequestAdmission);
  fastify.route({
    method: 'POST',
    url: MCP_PATH,
    // Before the body is read: a caller without a key, or past its burst, gets no parsing done.
    onRequest: async (request, reply) => {
      try {
        await admission.admit(request, MCP_ADMISSION);
      } catch (error) {
        sendErrorReply(error, request, reply);
        return reply;
      }
    },
    handler: (request, reply) => answerMcpRequest(fastify, request, reply),
  });
  fastify.route({
    method: ['GET', 'DELETE'],
    url: MCP_PATH,
    handler: async (request, reply) => {
      void reply.header('allow', 'POST');
      const refusal = new ApiError(
        405,
        'METHOD_NOT_ALLOWED',
        `The ${request.method} method is not served: the MCP endpoint is stateless, with no stream or session`,
        { allow: ['POST'] },
      );
      sendErrorReply(refusal, request, reply);
      return reply;
    },
  });
}

async function answerMcpRequest(
  fastify: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  // MCP 2025-06-18 dropped JSON-RPC batches, which the SDK's transport still answers: refused
  // whole here, before any of their messages (a tool call among them) is served.
  if (Array.isArray(request.body)) {
    return reply.status(400).send({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: JSON_RPC_INVALID_REQUEST,
        message: 'Invalid Request: send one JSON-RPC message per request, not an array',
      },
    });
  }
  const client = createPricingClient({
    apiUrl: IN_PROCESS_API_URL,
    apiKey: presentedApiKey(request),
    fetch: injectedFetch(fastify, request),
  });
  const [{ createPricingMcpServer }, { WebStandardStreamableHTTPServerTransport }] =
    await loadMcpModules();
  const server = createPricingMcpServer(client);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  try {
    await server.connect(transport);
    const answer = await transport.handleRequest(asWebRequest(request), {
      parsedBody: request.body,
    });
    void reply.status(answer.status);
    answer.headers.forEach((value, name) => void reply.header(name, value));
    return await reply.send(await answer.text());
  } finally {
    await server.close();
  }
}

/** The request as the SDK's transport reads it: its headers (the body is passed parsed). */
function asWebRequest(request: FastifyRequest): Request {
  // A fixed origin: the Host header is the client's to write, and the transport ignores it.
  return new Request(new URL(request.url, 'http://mcp.local'), {
    method: request.method,
    headers: webHeaders(request.headers),
  });
}
