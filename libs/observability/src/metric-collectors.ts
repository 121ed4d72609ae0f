import { Injectable, OnModuleInit } from '@nestjs/common';
import { ProjectionLagReader } from '#app/persistence';
import { Metrics } from './metrics.js';
import { JOB_STATES, QueueInspector } from './queue-inspector.js';

/**
 * Gauges read from their source at each scrape: queue depth from Redis, projection lag and
 * failures from the database. Every process that exposes metrics reports them (they describe shared state,
 * so aggregate them with max, not sum).
 */
@Injectable()
export class MetricCollectors implements OnModuleInit {
  constructor(
    private readonly metrics: Metrics,
    private readonly queues: QueueInspector,
    private readonly lag: ProjectionLagReader,
  ) {}

  onModuleInit(): void {
    this.metrics.gauge(
      'queue_jobs',
      'Jobs in each queue by state',
      ['queue', 'state'],
      async (gauge) => {
        for (const { queue, counts } of await this.queues.counts()) {
          for (const state of JOB_STATES) gauge.set({ queue, state }, counts[state]);
        }
      },
    );
    this.metrics.gauge(
      'projection_lag_events',
      'Events in the log a projector has not applied yet',
      ['projector'],
      async (gauge) => {
        for (const { projector, events } of await this.lag.read()) gauge.set({ projector }, events);
      },
    );
    this.metrics.gauge(
      'projection_lag_seconds',
      'How long the oldest event a projector has not applied has waited (0 when caught up)',
      ['projector'],
      async (gauge) => {
        for (const { projector, seconds } of await this.lag.read())
          gauge.set({ projector }, seconds);
      },
    );
    this.metrics.gauge(
      'projection_failed',
      'Whether a projector stopped at an event it cannot apply (1) or moves (0): `cli projections`',
      ['projector'],
      async (gauge) => {
        for (const { projector, failure } of await this.lag.read())
          gauge.set({ projector }, failure ? 1 : 0);
      },
    );
  }
}
