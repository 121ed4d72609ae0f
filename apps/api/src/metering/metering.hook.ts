import { Logger } from '@nestjs/common';
import type { RequestMeter } from '#app/access';
import type { Metrics } from '#app/observability';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { replaceWithError } from '../errors/error-body.filter.js';
import { errorShapeOf } from '../errors/error-shape.js';
import { limitExceeded } from './limit-exceeded.js';
import { rateLimitHeaders } from './rate-limit-headers.js';
import '../auth/authenticated-request.js';

const logger = new Logger('Metering');

/**
 * Fastify onSend step for a request the key guard metered: a counted request whose answer is
 * not 2xx gets its hourly count and credit back (only 2xx is charged; by the charge's id, so
 * once, and in the background when Redis fails at that moment), and the response carries
 * the key's counters as they stand after that. An uncharged 3xx or 4xx is bounded by the burst
 * limit, which a charged answer never touches: it takes a burst unit in the same Redis step as
 * its refund, and past the limit it leaves as the burst 429 instead (a refused request changed
 * nothing, so nothing is lost by not telling its outcome). A 5xx, the service's own failure,
 * takes no burst unit. Answers the payload to send. It runs after the status is final (a 304
 * from the ETag check included), which an interceptor could not see.
 */
export async function settleMetering(
  meter: RequestMeter,
  metrics: Metrics,
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  const metering = request.metering;
  if (!metering) return payload;
  const now = new Date();
  let reading = metering.reading;
  const status = reply.statusCode;
  const charged = status >= 200 && status < 300;
  if (metering.ticket && charged) metrics.creditsCharged.inc({ plan: metering.ticket.plan.name });
  if (metering.ticket && !charged) {
    try {
      reading = await meter.refund(metering.ticket, now, { takeBurstUnit: status < 500 });
    } catch (error) {
      logger.warn(
        `request ${request.id}: could not give back the charge of key ${metering.ticket.apiKeyId} ` +
          `for a ${status} yet, retrying in the background (${(error as Error).message})`,
      );
    }
  }
  void reply.headers(rateLimitHeaders(reading, now));
  if (reading.outcome !== 'burst') return payload;
  return replaceWithError(limitExceeded(reading, errorShapeOf(request), now), request, reply);
}
