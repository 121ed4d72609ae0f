import { Injectable, Logger } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** A scrape must answer: a gauge whose source is this slow is left empty. */
const COLLECT_TIMEOUT_MS = 2_000;

/**
 * The process's Prometheus metrics (docs/API.md, "Operations"). One registry per application, not
 * prom-client's global one, so the standalone process (API and worker) and tests that start
 * several applications each get their own.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();
  private readonly logger = new Logger(Metrics.name);

  readonly httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route template, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to sending its answer, by route template and method',
    labelNames: ['route', 'method'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  readonly creditsCharged = new Counter({
    name: 'credits_charged_total',
    help: 'Credits charged: metered requests answered 2xx (refunded ones are not counted)',
    labelNames: ['plan'] as const,
    registers: [this.registry],
  });

  readonly records = new Counter({
    name: 'ingest_records_total',
    help: 'Ingest records this process decided, by record type and outcome (appended, duplicate, retrying, failed)',
    labelNames: ['type', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly webhookDeliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook delivery attempts this process made, by outcome (delivered, retrying, failed, webhook_deleted)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly eventsAppended = new Counter({
    name: 'events_appended_total',
    help: 'Events this process appended to the log, by event type',
    labelNames: ['type'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /**
   * A gauge read from its source at each scrape (queue depth, projection lag). When the source
   * cannot be read in time (Redis or the database away or stalled) the gauge is left empty
   * rather than failing the whole scrape: the other metrics matter most during an outage.
   */
  gauge<Label extends string>(
    name: string,
    help: string,
    labelNames: readonly Label[],
    read: (gauge: Gauge<Label>) => Promise<void>,
  ): Gauge<Label> {
    const logger = this.logger;
    return new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        try {
          await Promise.race([
            read(this),
            new Promise((_, fail) =>
              setTimeout(() => fail(new Error('no answer in time')), COLLECT_TIMEOUT_MS).unref(),
            ),
          ]);
        } catch (error) {
          this.reset();
          logger.warn(`${name} not collected: ${(error as Error).message}`);
        }
      },
    });
  }

  /** The Prometheus text exposition of every metric. */
  exposition(): Promise<string> {
    return this.registry.metrics();
  }
}
