import type { ApiKeyScope } from '#app/access';
import type { Feature } from '#app/config';
import type { CheckpointStore, ReadDatabase } from '#app/persistence';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AdmissionRule, RequestAdmission } from '../auth/request-admission.js';
import { sendErrorReply } from '../errors/error-body.filter.js';
import {
  JSON_CONTENT_TYPE,
  type ImmutableReadCache,
  type LaneAnswer,
} from './immutable-read.cache.js';
import { isMarkedImmutable, markImmutable, sentBody } from './immutable-response.js';
import { routeConfigEntry, WithRouteConfig } from './route-config.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the lane once it has admitted a request: where its answer is kept. */
    laneKey?: string;
    /**
     * Set on the request that goes to its route for an answer the lane does not hold: hands the
     * answer it kept (or nothing) to the requests for the same one that arrived meanwhile.
     */
    settleLaneWaiters?: (answer: LaneAnswer | undefined) => void;
  }
}

/** What opens a route to the lane: its admission rule, and what its answers depend on. */
interface LaneRule extends AdmissionRule {
  /**
   * The projectors whose read models the answer is made from: it is kept under their
   * checkpoints' stamp, so it is current until one of them moves. Absent: the route's answers
   * are immutable (markImmutable), kept by URL alone.
   */
  projectors?: readonly string[];
}

/** The Fastify route config key that opens a route to the lane. */
const LANE = 'immutableReadLane';

/**
 * Opens a charged GET route to the lane: once the route has sent an answer for a URL, the same
 * URL is answered ahead of Nest's request pipeline while the answer is kept. `access` must be
 * the route's guard's own scope and feature (a constant both take), so both admit alike. With
 * `projectors`, every 200 is kept while those read models stand still; without, only answers
 * the route marks immutable (a version, an ended period) are.
 */
export function ServedAheadOfNest(
  access: { scope: ApiKeyScope; feature: Feature },
  projectors?: readonly string[],
) {
  return WithRouteConfig({ [LANE]: { ...access, charged: true, projectors } satisfies LaneRule });
}

function laneRuleOf(request: FastifyRequest): LaneRule | undefined {
  return routeConfigEntry<LaneRule>(request, LANE);
}

/**
 * The lane, an onRequest hook: a GET of a lane route is admitted here (key, scope, plan,
 * metering: RequestAdmission, as the key guard does, which then lets it through) and, when an
 * answer is kept for it, answered at once, skipping Nest's router context, guard, pipes,
 * handler and serialization. The onSend hooks (ETag and 304, metering settlement, request id)
 * and the metrics run as for any answer. Otherwise Nest answers, and keepLaneAnswer keeps it.
 */
export function serveImmutableReadsAheadOfNest(
  fastify: FastifyInstance,
  admission: RequestAdmission,
  checkpoints: CheckpointStore,
  cache: ImmutableReadCache,
  reads: ReadDatabase,
): void {
  const answering = new Map<string, Promise<LaneAnswer | undefined>>();
  const goFirst = (request: FastifyRequest, reply: FastifyReply) => {
    const key = request.laneKey!;
    let settle!: (answer: LaneAnswer | undefined) => void;
    const answered = new Promise<LaneAnswer | undefined>((resolve) => (settle = resolve));
    answering.set(key, answered);
    request.settleLaneWaiters = (answer) => {
      if (answering.get(key) === answered) answering.delete(key);
      settle(answer);
    };
    // Whatever becomes of the request (an error, a client gone), the others go on.
    reply.raw.once('close', () => request.settleLaneWaiters?.(undefined));
  };
  fastify.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET') return;
    const rule = laneRuleOf(request);
    if (!rule) return;
    const { projectors } = rule;
    // Read from Redis while the request is metered there: the two round trips overlap.
    const published = projectors ? checkpoints.publishedStamps(projectors) : null;
    try {
      await admission.admit(request, rule);
      if (projectors) {
        const stamp = await checkpoints.stamp(projectors, await published);
        // The answer is made from these read models alone: a replica must hold them as stamped.
        reads.noteFloor(projectors, stamp);
        request.laneKey = `${request.url} @${stamp}`;
      } else {
        request.laneKey = request.url;
      }
    } catch (error) {
      sendErrorReply(error, request, reply);
      return reply;
    }
    let answer = cache.sentFor(request.laneKey);
    if (!answer) {
      // Requests for one answer arriving together (a popular URL, a moved checkpoint) send one
      // to its route; the others wait for what it keeps.
      const pending = answering.get(request.laneKey);
      if (!pending) {
        goFirst(request, reply);
        return;
      }
      answer = await pending;
      if (!answer) return;
    }
    if (!projectors) markImmutable(request, answer);
    return reply.header('content-type', JSON_CONTENT_TYPE).send(answer.body);
  });
}

/** Whether the key guard may let `request` through: the lane admitted it already. */
export function admittedByLane(request: FastifyRequest): boolean {
  return request.laneKey !== undefined;
}

/**
 * For the onSend chain, after the ETag step: keeps a lane route's 200 under its lane key (a
 * 304 carries no body to keep), if the answer is one the lane may send again, and hands it to
 * the requests that waited for it.
 */
export function keepLaneAnswer(
  cache: ImmutableReadCache,
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): void {
  const { laneKey } = request;
  if (laneKey === undefined) return;
  const kept = keep(cache, request, reply, payload, laneKey);
  request.settleLaneWaiters?.(kept ? cache.sentFor(laneKey) : undefined);
}

function keep(
  cache: ImmutableReadCache,
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  laneKey: string,
): boolean {
  const body = sentBody(payload);
  if (reply.statusCode !== 200 || body === null) return false;
  if (laneRuleOf(request)?.projectors) {
    cache.keepSent(laneKey, body, '');
    return true;
  }
  const etag = reply.getHeader('etag');
  const kept = request.keptAnswer;
  // A stale answer is sent while its route reads it again: the fresh one is kept next time.
  if (isMarkedImmutable(request) && !kept?.stale && typeof etag === 'string') {
    cache.keepSent(laneKey, body, etag, kept);
    return true;
  }
  return false;
}
