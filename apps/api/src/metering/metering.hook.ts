import { Logger } from '@nestjs/common';
import type { RequestMeter } from '#app/access';
import type { Metrics } from '#app/observability';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { rateLimitHeaders } from './rate-limit-headers.js';
import '../auth/authenticated-request.js';

const logger = new Logger('Metering');

/**
 * Fastify onSend step for a request the key guard metered: a counted request whose answer is
 * not 2xx gets its hourly count and credit back (only 2xx is charged), and the response carries
 * the key's counters as they stand after that. It runs after the status is final (a 304 from
 * the ETag check included), which an interceptor could not see.
 */
export async function settleMetering(
  meter: RequestMeter,
  metrics: Metrics,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const metering = request.metering;
  if (!metering) return;
  const now = new Date();
  let reading = metering.reading;
  const charged = reply.statusCode >= 200 && reply.statusCode < 300;
  if (metering.ticket && charged) metrics.creditsCharged.inc({ plan: metering.ticket.plan.name });
  if (metering.ticket && !charged) {
    try {
      reading = await meter.refund(metering.ticket, now);
    } catch (error) {
      logger.warn(
        `request ${request.id}: could not give back the charge of key ${metering.ticket.apiKeyId} ` +
          `for a ${reply.statusCode} (${(error as Error).message})`,
      );
    }
  }
  void reply.headers(rateLimitHeaders(reading, now));
}
