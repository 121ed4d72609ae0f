import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '#app/config';
import { PollingLoop } from '../polling-loop.js';
import { ProjectionRunner } from './projection-runner.js';

/**
 * Keeps the read models close behind the log: runs the projectors when nudged (events were
 * appended in this process) and on a timer (events appended by other processes). A failed run
 * applied nothing (its transaction rolled back); the next tick tries again.
 */
@Injectable()
export class ProjectionScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly loop: PollingLoop;

  constructor(
    private readonly config: AppConfig,
    private readonly runner: ProjectionRunner,
  ) {
    this.loop = new PollingLoop(
      new Logger(ProjectionScheduler.name),
      'projection run',
      async (stopping) => {
        await this.runner.catchUp(undefined, { stopping });
        return false;
      },
    );
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.runner.ensureCheckpoints();
    this.loop.start(this.config.projections.pollMs);
  }

  nudge(): void {
    this.loop.nudge();
  }

  onApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }
}
