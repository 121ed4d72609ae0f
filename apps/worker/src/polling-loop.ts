import type { Logger } from '@nestjs/common';

/**
 * Runs a piece of background work on a timer and whenever nudged, one run at a time. A run
 * calls `step` until it says there is nothing more to do, and runs again at once if nudged
 * meanwhile. A failing run ends; the next tick tries again, and an outage is logged once
 * rather than at every tick.
 */
export class PollingLoop {
  private timer?: NodeJS.Timeout;
  private current: Promise<void> | null = null;
  private rerun = false;
  private stopped = false;
  private failing = false;

  /**
   * @param what names the work in the log lines ("<what> failed: ...").
   * @param step does some of the work; resolves true when there may be more at once.
   */
  constructor(
    private readonly logger: Logger,
    private readonly what: string,
    private readonly step: (stopping: () => boolean) => Promise<boolean>,
  ) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => this.nudge(), intervalMs);
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

  /** Stops the timer and waits for the run in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.current;
  }

  private async runUntilQuiet(): Promise<void> {
    const stopping = () => this.stopped;
    do {
      this.rerun = false;
      try {
        while (!this.stopped && (await this.step(stopping))) {
          // More at once.
        }
      } catch (error) {
        if (!this.failing) this.logger.error(`${this.what} failed: ${(error as Error).message}`);
        this.failing = true;
        return;
      }
      if (this.failing) this.logger.log(`${this.what} succeeds again`);
      this.failing = false;
    } while (this.rerun && !this.stopped);
  }
}
