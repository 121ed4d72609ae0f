import type { Logger } from '@nestjs/common';
import type { ChargeTicket } from './meter-reading.js';

const SHORTEST_RETRY_MS = 100;
const LONGEST_RETRY_MS = 5_000;

/**
 * Charges to give back that Redis could not be asked about: the call that counted the request
 * or the one that gave it back failed (the connection was lost, the deadline passed), so Redis
 * may or may not have run it. Each is given back by its id in the background, retried with a
 * growing delay while Redis is away, for as long as Redis keeps the charge's record; a charge
 * Redis never counted, or already gave back, gets nothing back, however many attempts reach it.
 * They live in this process only: one that stops first leaves its charges counted (logged).
 */
export class LostCharges {
  private readonly waiting = new Map<string, { ticket: ChargeTicket; giveUpAt: number }>();
  private retryDelayMs = SHORTEST_RETRY_MS;
  /** Set while a round is due or running. */
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly giveBack: (ticket: ChargeTicket) => Promise<unknown>,
    private readonly recordKeptMs: number,
    private readonly logger: Logger,
  ) {}

  add(ticket: ChargeTicket): void {
    if (this.stopped) {
      this.leave(ticket, 'the process is stopping');
      return;
    }
    if (this.waiting.has(ticket.chargeId)) return;
    this.waiting.set(ticket.chargeId, { ticket, giveUpAt: Date.now() + this.recordKeptMs });
    if (!this.timer) this.retryIn(0);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    for (const { ticket } of this.waiting.values()) this.leave(ticket, 'the process stopped');
    this.waiting.clear();
  }

  private retryIn(delayMs: number): void {
    // A process that has nothing else to do need not wait for Redis to come back.
    this.timer = setTimeout(() => void this.giveBackAll(), delayMs).unref();
  }

  private async giveBackAll(): Promise<void> {
    const now = Date.now();
    let redisFailed = false;
    await Promise.all(
      [...this.waiting.values()].map(async ({ ticket, giveUpAt }) => {
        try {
          await this.giveBack(ticket);
        } catch (error) {
          redisFailed = true;
          if (now < giveUpAt) return;
          this.leave(ticket, `Redis kept failing: ${(error as Error).message}`);
        }
        this.waiting.delete(ticket.chargeId);
      }),
    );
    this.timer = null;
    this.retryDelayMs = redisFailed
      ? Math.min(this.retryDelayMs * 2, LONGEST_RETRY_MS)
      : SHORTEST_RETRY_MS;
    // Charges added during this round wait for the next one.
    if (!this.stopped && this.waiting.size > 0) this.retryIn(this.retryDelayMs);
  }

  private leave(ticket: ChargeTicket, reason: string): void {
    this.logger.warn(
      `could not give back charge ${ticket.chargeId} of key ${ticket.apiKeyId}, lost in a Redis ` +
        `failure (${reason}): if Redis counted it, it stays counted`,
    );
  }
}
