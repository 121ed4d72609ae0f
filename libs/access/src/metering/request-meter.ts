import { randomBytes } from 'node:crypto';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig, type PlanDefinition } from '#app/config';
import { AccessRedis } from '../access-redis.js';
import { creditMonth, HOUR_MS, nextCreditReset } from './calendar.js';
import { LostCharges } from './lost-charges.js';
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
 * How long Redis keeps the record of a charge, within which it can be given back. Every request
 * charged in that time holds one record (its id and window start) until its answer is known:
 * a non-2xx answer removes it, a 2xx leaves it to expire.
 */
const CHARGE_RECORD_MS = 5 * 60_000;

/**
 * Checks and counts requests against a key's plan: hourly window, monthly credits and burst
 * limit, each call one round trip to Redis (docs/API.md, "Credits and limits"). Each charge has
 * an id, and is given back by it: once, however many times that is asked.
 */
@Injectable()
export class RequestMeter implements OnApplicationShutdown {
  private readonly lostCharges: LostCharges;
  /**
   * Charge ids are this process's random prefix (72 bits: no two processes share one) and a
   * count: unique without drawing random bytes for every request.
   */
  private readonly chargeIdPrefix = randomBytes(9).toString('base64url');
  private chargesMade = 0;

  constructor(
    private readonly redis: AccessRedis,
    private readonly config: AppConfig,
  ) {
    this.lostCharges = new LostCharges(
      (ticket) => this.giveBack(ticket, new Date(), 0),
      CHARGE_RECORD_MS,
      new Logger(RequestMeter.name),
    );
  }

  /**
   * Meters one request. When the call fails in `charge` mode, Redis may have counted it before
   * the failure; the request will be answered 503, so the charge is given back in the
   * background (and again should Redis answer late).
   */
  async meter(
    apiKeyId: string,
    plan: PlanDefinition,
    mode: MeterMode,
    now = new Date(),
  ): Promise<Metering> {
    const month = creditMonth(now);
    const ticket: ChargeTicket | null =
      mode === 'charge'
        ? { apiKeyId, plan, creditMonth: month, chargeId: this.nextChargeId() }
        : null;
    const keys = [
      this.redis.meterKey(apiKeyId, 'hour'),
      this.redis.meterKey(apiKeyId, `credits:${month}`),
      this.redis.meterKey(apiKeyId, 'burst'),
      ...(ticket ? [this.chargeRecordKey(ticket)] : []),
    ];
    const args = [
      now.getTime(),
      mode,
      plan.requestsPerHour,
      plan.creditsPerMonth,
      // Kept an hour past the reset, for the refund of a request charged just before it.
      nextCreditReset(now).getTime() + HOUR_MS,
      this.config.limits.burstPerSecond,
      CHARGE_RECORD_MS,
    ];
    const giveBackLater = () => {
      if (ticket) this.lostCharges.add(ticket);
    };
    let reply: ScriptReply;
    try {
      reply = (await this.redis.run(METER_SCRIPT, keys, args, giveBackLater)) as ScriptReply;
    } catch (error) {
      giveBackLater();
      throw error;
    }
    const reading = this.reading(reply, plan, now);
    return { reading, ticket: reading.outcome === 'ok' ? ticket : null };
  }

  private nextChargeId(): string {
    this.chargesMade += 1;
    return `${this.chargeIdPrefix}${this.chargesMade.toString(36)}`;
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
   * Gives back what `ticket` counted, unless it was given back already; the reading shows the
   * key's counters after it. With `takeBurstUnit` the request's answer is one the burst limit
   * bounds (a 3xx or 4xx): it takes a burst unit in the same step, and the reading's outcome is
   * `burst` when none was free. When the call fails, the charge is given back in the background.
   */
  async refund(
    ticket: ChargeTicket,
    now = new Date(),
    { takeBurstUnit = false }: { takeBurstUnit?: boolean } = {},
  ): Promise<MeterReading> {
    try {
      return await this.giveBack(
        ticket,
        now,
        takeBurstUnit ? this.config.limits.burstPerSecond : 0,
      );
    } catch (error) {
      this.lostCharges.add(ticket);
      throw error;
    }
  }

  onApplicationShutdown(): void {
    this.lostCharges.stop();
  }

  private async giveBack(
    ticket: ChargeTicket,
    now: Date,
    burstSize: number,
  ): Promise<MeterReading> {
    const reply = (await this.redis.run(
      REFUND_SCRIPT,
      [
        this.redis.meterKey(ticket.apiKeyId, 'hour'),
        this.redis.meterKey(ticket.apiKeyId, `credits:${ticket.creditMonth}`),
        this.redis.meterKey(ticket.apiKeyId, `credits:${creditMonth(now)}`),
        this.redis.meterKey(ticket.apiKeyId, 'burst'),
        this.chargeRecordKey(ticket),
      ],
      [now.getTime(), burstSize],
    )) as ScriptReply;
    return this.reading(reply, ticket.plan, now);
  }

  private chargeRecordKey(ticket: ChargeTicket): string {
    return this.redis.meterKey(ticket.apiKeyId, `charge:${ticket.chargeId}`);
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
