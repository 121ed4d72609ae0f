import { Injectable, OnModuleInit } from '@nestjs/common';
import { ProjectionLagReader, ReadDatabase } from '#app/persistence';
import { Counter } from 'prom-client';
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
    private readonly reads: ReadDatabase,
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
    if (this.reads.hasReplicas) this.collectReadReplicas();
  }

  /** With DATABASE_READ_URLS: where the read API's reads went, and each replica's state. */
  private collectReadReplicas(): void {
    const reads = this.reads;
    new Counter({
      name: 'database_reads_total',
      help: 'Requests of the read API whose queries went to the primary or to a read replica',
      labelNames: ['target'] as const,
      registers: [this.metrics.registry],
      // Counted where the choice is made (libs/persistence), copied at each scrape.
      collect() {
        this.reset();
        for (const [target, count] of Object.entries(reads.readsByTarget()))
          this.inc({ target }, count);
      },
    });
    this.metrics.gauge(
      'read_replica_lag_seconds',
      'How far each read replica replays behind its primary, as last probed (absent: unknown)',
      ['replica'],
      async (gauge) => {
        gauge.reset();
        for (const { name, lagMs } of reads.replicaStates())
          if (lagMs !== null) gauge.set({ replica: name }, lagMs / 1000);
      },
    );
    this.metrics.gauge(
      'read_replica_usable',
      'Whether each read replica is reachable and within READ_REPLICA_MAX_LAG_MS (1) or skipped (0)',
      ['replica'],
      async (gauge) => {
        for (const { name, usable } of reads.replicaStates())
          gauge.set({ replica: name }, usable ? 1 : 0);
      },
    );
  }
}
