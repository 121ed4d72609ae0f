import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { AppConfig } from '#app/config';
import { MigrationStatus, ProjectionLagReader } from '#app/persistence';
import { QueueInspector } from './queue-inspector.js';

/** A probe must answer: a check that has not finished by then counts as down. */
const CHECK_TIMEOUT_MS = 2_000;

/**
 * The checks of `/health/ready` that terminus does not ship. Each one is down when it throws or
 * takes longer than two seconds, never an error of the endpoint itself.
 */
@Injectable()
export class ReadinessIndicators {
  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly migrationStatus: MigrationStatus,
    private readonly inspector: QueueInspector,
    private readonly lag: ProjectionLagReader,
    private readonly config: AppConfig,
  ) {}

  /** Migrations this code has that the database lacks (MigrationStatus). */
  migrations(key: string) {
    return this.attempt(key, async () => {
      if (await this.migrationStatus.anyPending()) throw new Error('migrations are pending');
    });
  }

  redis(key: string) {
    return this.attempt(key, async () => {
      await this.inspector.connection.ping();
    });
  }

  queues(key: string) {
    return this.attempt(key, async () => {
      const counts = await this.inspector.counts();
      return Object.fromEntries(
        counts.map(({ queue, paused, counts }) => [queue, { paused, ...counts }]),
      );
    });
  }

  /**
   * Stopped at an event it cannot apply, or far behind: answers would be stale until the
   * projector moves again.
   */
  projections(key: string) {
    const limit = this.config.observability.readyMaxProjectionLag;
    return this.attempt(key, async () => {
      const lag = await this.lag.read();
      const failed = lag.filter((projector) => projector.failure);
      if (failed.length > 0) {
        const described = failed
          .map(({ projector, failure }) => `${projector} at event ${failure?.eventSeq}`)
          .join(', ');
        throw new Error(`stopped at an event it cannot apply: ${described} (cli projections)`);
      }
      const behind = lag.filter((projector) => projector.events > limit);
      const described = lag.map(({ projector, events }) => `${projector} ${events}`).join(', ');
      if (behind.length > 0) throw new Error(`more than ${limit} events behind (${described})`);
      return Object.fromEntries(lag.map(({ projector, events }) => [projector, events]));
    });
  }

  private attempt(key: string, check: () => Promise<Record<string, unknown> | void>) {
    return this.indicators.check(key).attempt(check).withTimeout(CHECK_TIMEOUT_MS);
  }
}
