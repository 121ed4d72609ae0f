import { utcDate } from '#app/domain';
import type { CheckpointStore, ReadDatabase } from '#app/persistence';
import { DECORATORS } from '@nestjs/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestAdmission } from '../auth/request-admission.js';
import { declaresAccess, routeAdmissionRule } from '../auth/route-access.js';
import { sendErrorReply } from '../errors/error-body.filter.js';
import type { AnswerCache, KeptAnswer } from './answer-cache.js';
import { revalidates, sentBody } from './http-caching.js';
import { routeConfigEntry, WithRouteConfig } from './route-config.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the lane once it has admitted a request: where its answer is kept. */
    laneKey?: string;
    /**
     * Set with laneKey: the stamp of the route's read models the answer is kept under, so the
     * state the route must read (a read replica is chosen to hold it).
     */
    laneStamp?: string;
    /**
     * Set on the request that goes to its route for an answer the lane does not hold: hands the
     * answer it kept (or nothing) to the requests for the same one that arrived meanwhile.
     */
    settleLaneWaiters?: (answer: KeptAnswer | undefined) => void;
  }
}

/** What opens a route to the lane. */
interface LaneRule {
  /**
   * The projectors whose read models the answer is made from: it is kept under their
   * checkpoints' stamp, so it is current until one of them moves.
   */
  projectors: readonly string[];
  /** The route's handler, whose documented query parameters are all it may read. */
  handler: object;
  /** The answer also depends on the day (UTC): a date parameter defaults to today. */
  today?: boolean;
}

/** The Fastify route config key that opens a route to the lane. */
const LANE = 'readLane';

/**
 * For a lane route that answers JSON text, and for the kept bytes the lane sends: Fastify would
 * call them text/plain and octet-stream.
 */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Opens a GET route to the lane: once the route has sent a 200, the same question (the route,
 * its path parameters and the query parameters it documents) is answered ahead of Nest's
 * request pipeline while the read models named by `projectors` stand still. The route must
 * read nothing else: the lane hands it only the query parameters it documents (@ApiQuery), and
 * its body must depend on nothing but them and those read models. Its caching headers are kept
 * with it: those that follow the clock (an open period that ends) catch up when the answer is
 * read again, within READ_CACHE_SECONDS. With `today`, the answer may also depend on the day
 * (UTC): its key names the day its request was admitted on, so it is not sent on a later day.
 */
export function ServedAheadOfNest(
  projectors: readonly string[],
  { today = false }: { today?: boolean } = {},
): MethodDecorator {
  return (target, key, descriptor) =>
    WithRouteConfig({
      [LANE]: { projectors, handler: descriptor.value as object, today } satisfies LaneRule,
    })(target, key, descriptor);
}

function laneRuleOf(request: FastifyRequest): LaneRule | undefined {
  return routeConfigEntry<LaneRule>(request, LANE);
}

/** The query parameters a route documents, read once per route from its @ApiQuery metadata. */
const documentedQuery = new WeakMap<object, readonly string[]>();
function queryParametersOf({ handler }: LaneRule): readonly string[] {
  let names = documentedQuery.get(handler);
  if (!names) {
    const parameters = (Reflect.getMetadata(DECORATORS.API_PARAMETERS, handler) ?? []) as {
      name: string;
      in: string;
    }[];
    names = parameters.filter((parameter) => parameter.in === 'query').map(({ name }) => name);
    documentedQuery.set(handler, names);
  }
  return names;
}

/**
 * Where the answer to `request` is kept: its route, its path parameters, the query parameters
 * the route documents (any other, such as a cache-buster, is no part of the question, and is
 * taken from the request so that the route cannot read it either), the read models' stamp and,
 * for a route whose answer depends on it, the day.
 */
function answerKey(request: FastifyRequest, rule: LaneRule, stamp: string): string {
  const query = request.query as Record<string, unknown>;
  const asked: Record<string, unknown> = {};
  for (const name of queryParametersOf(rule)) {
    if (query[name] !== undefined) asked[name] = query[name];
  }
  request.query = asked;
  const day = rule.today ? ` on ${utcDate(new Date())}` : '';
  return `${request.routeOptions.url} ${JSON.stringify(request.params)} ${JSON.stringify(asked)} @${stamp}${day}`;
}

/**
 * The lane, an onRequest hook: a GET of a lane route is admitted here (key, scope, plan,
 * metering: RequestAdmission under the route's own rule, as the key guard does, which then
 * lets it through) and, when an answer is kept for it, answered at once, skipping Nest's router
 * context, guard, pipes, handler and serialization. The onSend hooks (caching headers and 304,
 * metering settlement, request id) and the metrics run as for any answer. Otherwise Nest
 * answers, and keepLaneAnswer keeps it.
 */
export function serveReadsAheadOfNest(
  fastify: FastifyInstance,
  admission: RequestAdmission,
  checkpoints: CheckpointStore,
  cache: AnswerCache,
  reads: ReadDatabase,
): void {
  // A lane route admits by its own declarations: one without them would admit any key.
  fastify.addHook('onRoute', (route) => {
    const config = route.config as Record<string, unknown> | undefined;
    if (config?.[LANE] && !declaresAccess(config)) {
      throw new Error(`${route.url} is served ahead of Nest but declares no KeyAccess`);
    }
  });
  const answering = new Map<string, Promise<KeptAnswer | undefined>>();
  const goFirst = (request: FastifyRequest, reply: FastifyReply) => {
    const key = request.laneKey!;
    let settle!: (answer: KeptAnswer | undefined) => void;
    const answered = new Promise<KeptAnswer | undefined>((resolve) => (settle = resolve));
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
    const admissionRule = routeAdmissionRule(request);
    let answer: KeptAnswer | undefined;
    let stamp: string;
    let key: string;
    try {
      if (request.headers['if-none-match'] === undefined) {
        // Read from Redis while the request is metered there: the two round trips overlap.
        const published = checkpoints.publishedStamps(projectors);
        await admission.admit(request, admissionRule);
        stamp = await checkpoints.stamp(projectors, await published);
        key = answerKey(request, rule, stamp);
      } else {
        // A revalidation: the kept answer's ETag tells before metering whether it is a 304, which
        // is not charged, so nothing is charged to be given back. Authenticated first: a request
        // without a valid key (or from a blocked address) causes no read of the stamps.
        const principal = await admission.authenticate(request);
        stamp = await checkpoints.currentStamp(projectors);
        key = answerKey(request, rule, stamp);
        answer = cache.get(key);
        const etag = answer?.caching?.etag;
        await admission.meterAuthenticated(request, principal, admissionRule, {
          revalidation: etag !== undefined && revalidates(request, etag),
        });
      }
    } catch (error) {
      sendErrorReply(error, request, reply);
      return reply;
    }
    request.laneStamp = stamp;
    request.laneKey = key;
    // The answer made from these read models alone: a replica must hold them as stamped.
    reads.noteFloor(projectors, stamp);
    // Requests for one answer arriving together (a popular question, a moved checkpoint) send
    // one to its route; the others wait for what it keeps.
    answer ??= cache.get(key);
    if (!answer) {
      const pending = answering.get(key);
      answer = pending && (await pending);
    }
    if (!answer) {
      goFirst(request, reply);
      return;
    }
    if (answer.caching) {
      request.cacheForSeconds = answer.caching.maxAgeSeconds;
      request.keptEtag = answer.caching.etag;
    }
    return reply.header('content-type', JSON_CONTENT_TYPE).send(answer.body);
  });
}

/** Whether the key guard may let `request` through: the lane admitted it already. */
export function admittedByLane(request: FastifyRequest): boolean {
  return request.laneKey !== undefined;
}

/**
 * For the onSend chain, after the caching headers and before a 304 replaces the body: keeps the
 * 200 a lane route made under its lane key, with those headers, and hands it to the requests
 * that waited for it (nothing, for another answer: they then go to the route themselves).
 */
export function keepLaneAnswer(
  cache: AnswerCache,
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): void {
  const { laneKey, settleLaneWaiters } = request;
  // Only an answer its route made: one the lane sent is kept already.
  if (laneKey === undefined || !settleLaneWaiters) return;
  const body = sentBody(payload);
  const etag = reply.getHeader('etag');
  const maxAgeSeconds = request.cacheForSeconds;
  const caching =
    typeof etag === 'string' && maxAgeSeconds !== undefined ? { etag, maxAgeSeconds } : null;
  const kept =
    reply.statusCode === 200 && body !== null ? cache.keep(laneKey, body, caching) : undefined;
  settleLaneWaiters(kept);
}
