import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { AppConfig } from '#app/config';
import { ProjectionLagReader } from '#app/persistence';
import { DataSource } from 'typeorm';
import { QueueInspector } from './queue-inspector.js';

/** The checks of `/health/ready` that terminus does not ship. */
@Injectable()
export class ReadinessIndicators {
  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly dataSource: DataSource,
    private readonly inspector: QueueInspector,
    private readonly lag: ProjectionLagReader,
    private readonly config: AppConfig,
  ) {}

  /** Another process is migrating to a schema this one does not know yet. */
  async migrations(key: string) {
    const check = this.indicators.check(key);
    return (await this.dataSource.showMigrations())
      ? check.down({ message: 'migrations are pending' })
      : check.up();
  }

  async redis(key: string) {
    const check = this.indicators.check(key);
    try {
      await this.inspector.connection.ping();
      return check.up();
    } catch (error) {
      return check.down({ message: (error as Error).message });
    }
  }

  async queues(key: string) {
    const check = this.indicators.check(key);
    try {
      const counts = await this.inspector.counts();
      return check.up(
        Object.fromEntries(
          counts.map(({ queue, paused, counts }) => [queue, { paused, ...counts }]),
        ),
      );
    } catch (error) {
      return check.down({ message: (error as Error).message });
    }
  }

  /** Far behind: answers would be stale until the projector catches up. */
  async projections(key: string) {
    const check = this.indicators.check(key);
    const limit = this.config.observability.readyMaxProjectionLag;
    const lag = await this.lag.read();
    const behind = lag.filter((projector) => projector.events > limit);
    const data = Object.fromEntries(lag.map(({ projector, events }) => [projector, events]));
    return behind.length > 0
      ? check.down({ message: `more than ${limit} events behind`, ...data })
      : check.up(data);
  }
}
