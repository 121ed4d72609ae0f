import { Injectable, Logger } from '@nestjs/common';
import { AppConfig, type PlanDefinition } from '#app/config';
import { AccessRedis } from '../access-redis.js';
import { creditMonth, HOUR_MS, nextCreditReset } from './calendar.js';
import type {
  ChargeTicket,
  MeterMode,
  MeterOutcome,
  Metering,
  MeterReading,
} from './meter-reading.js';
import { METER_SCRIPT, REFUND_SCRIPT } from './scripts.js';

type ScriptReply = [MeterOutcome, number, number, number, number];

/**
 * Checks and counts requests against a key's plan: hourly window, monthly credits and burst
 * limit, each call one round trip to Redis (docs/API.md, "Credits and limits").
 */
@Injectable()
export class RequestMeter {
  private readonly logger = new Logger(RequestMeter.name);

  constructor(
    private readonly redis: AccessRedis,
    private readonly config: AppConfig,
  ) {}

  async meter(
    apiKeyId: string,
    plan: PlanDefinition,
    mode: MeterMode,
    now = new Date(),
  ): Promise<Metering> {
    const month = creditMonth(now);
    const creditsReset = nextCreditReset(now).getTime();
    const settle = (reply: ScriptReply): Metering => {
      const reading = this.reading(reply, plan, now);
      const counted = mode === 'charge' && reading.outcome === 'ok';
      return {
        reading,
        ticket: counted
          ? { apiKeyId, plan, windowStartedAt: reading.hourly.windowStartedAt!, creditMonth: month }
          : null,
      };
    };
    const reply = (await this.redis.run(
      METER_SCRIPT,
      [
        this.redis.meterKey(apiKeyId, 'hour'),
        this.redis.meterKey(apiKeyId, `credits:${month}`),
        this.redis.meterKey(apiKeyId, 'burst'),
      ],
      [
        now.getTime(),
        mode,
        plan.requestsPerHour,
        plan.creditsPerMonth,
        // Kept an hour past the reset, for the refund of a request charged just before it.
        creditsReset + HOUR_MS,
        this.config.limits.burstPerSecond,
      ],
      // The request was answered 503 without waiting for this count: give it back.
      (late) => this.giveBackLateCharge(settle(late as ScriptReply).ticket),
    )) as ScriptReply;
    return settle(reply);
  }

  /** A key's counters, changing nothing. A plan no longer configured allows nothing. */
  async read(apiKeyId: string, planName: string, now = new Date()): Promise<MeterReading> {
    const plan = this.config.planNamed(planName) ?? {
      name: planName,
      requestsPerHour: 0,
      creditsPerMonth: 0,
      features: [],
    };
    return (await this.meter(apiKeyId, plan, 'read', now)).reading;
  }

  /**
   * Gives back what `ticket` counted; the reading shows the key's counters after it. With
   * `takeBurstUnit` the request's answer is one the burst limit bounds (a 3xx or 4xx): it takes
   * a burst unit in the same step, and the reading's outcome is `burst` when none was free.
   */
  async refund(
    ticket: ChargeTicket,
    now = new Date(),
    { takeBurstUnit = false }: { takeBurstUnit?: boolean } = {},
  ): Promise<MeterReading> {
    const reply = (await this.redis.run(
      REFUND_SCRIPT,
      [
        this.redis.meterKey(ticket.apiKeyId, 'hour'),
        this.redis.meterKey(ticket.apiKeyId, `credits:${ticket.creditMonth}`),
        this.redis.meterKey(ticket.apiKeyId, `credits:${creditMonth(now)}`),
        this.redis.meterKey(ticket.apiKeyId, 'burst'),
      ],
      [
        ticket.windowStartedAt,
        now.getTime(),
        takeBurstUnit ? this.config.limits.burstPerSecond : 0,
      ],
    )) as ScriptReply;
    return this.reading(reply, ticket.plan, now);
  }

  private giveBackLateCharge(ticket: ChargeTicket | null): void {
    if (!ticket) return;
    this.refund(ticket).catch((error: unknown) =>
      this.logger.warn(
        `could not give back a charge of key ${ticket.apiKeyId} counted after its request ` +
          `was answered 503 (${(error as Error).message})`,
      ),
    );
  }

  private reading(
    [outcome, hourlyUsed, windowStart, creditsUsed, waitMs]: ScriptReply,
    plan: PlanDefinition,
    now: Date,
  ): MeterReading {
    const creditsReset = nextCreditReset(now).getTime();
    const windowStartedAt = windowStart === 0 ? null : windowStart;
    return {
      outcome,
      retryAfterMs: outcome === 'credits' ? creditsReset - now.getTime() : waitMs,
      hourly: {
        limit: plan.requestsPerHour,
        used: hourlyUsed,
        windowStartedAt,
        resetAt: (windowStartedAt ?? now.getTime()) + HOUR_MS,
      },
      credits: { limit: plan.creditsPerMonth, used: creditsUsed, resetAt: creditsReset },
      burstPerSecond: this.config.limits.burstPerSecond,
    };
  }
}
