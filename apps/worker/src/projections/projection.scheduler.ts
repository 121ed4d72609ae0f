import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '#app/config';
import { ProjectionRunner } from './projection-runner.js';

/**
 * Keeps the read models close behind the log: runs the projectors when nudged (events were
 * appended in this process) and on a timer (events appended by other processes).
 */
@Injectable()
export class ProjectionScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ProjectionScheduler.name);
  private timer?: NodeJS.Timeout;
  private current: Promise<void> | null = null;
  private rerun = false;
  private stopped = false;
  /** Set while runs fail, so that an outage is logged once rather than at every tick. */
  private failing = false;

  constructor(
    private readonly config: AppConfig,
    private readonly runner: ProjectionRunner,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.runner.ensureCheckpoints();
    this.timer = setInterval(() => this.nudge(), this.config.projections.pollMs);
    this.nudge();
  }

  nudge(): void {
    if (this.stopped) return;
    if (this.current) {
      this.rerun = true;
      return;
    }
    this.current = this.runUntilQuiet().finally(() => {
      this.current = null;
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.current;
  }

  private async runUntilQuiet(): Promise<void> {
    do {
      this.rerun = false;
      try {
        await this.runner.catchUp(undefined, { stopping: () => this.stopped });
      } catch (error) {
        // The next tick tries again; nothing was applied by the failed transaction.
        if (!this.failing) this.logger.error(`projection run failed: ${(error as Error).message}`);
        this.failing = true;
        return;
      }
      if (this.failing) this.logger.log('projection runs succeed again');
      this.failing = false;
    } while (this.rerun && !this.stopped);
  }
}
