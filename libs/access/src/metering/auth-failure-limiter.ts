import { Injectable } from '@nestjs/common';
import { AppConfig } from '#app/config';
import { AccessRedis } from '../access-redis.js';
import { authFailureBucket } from './auth-failure-bucket.js';
import { AUTH_FAILURE_SCRIPT } from './scripts.js';

/**
 * Bounds failed authentications per client address, an IPv6 address by its /64 (30 a minute by
 * default: docs/API.md, "Credits and limits"). Every caller (API keys, the admin token, the
 * queue dashboard) counts through here, so they share one rule and one budget.
 */
@Injectable()
export class AuthFailureLimiter {
  constructor(
    private readonly redis: AccessRedis,
    private readonly config: AppConfig,
  ) {}

  get perMinute(): number {
    return this.config.limits.authFailuresPerMinute;
  }

  /** Counts one failure; answers 0, or the milliseconds the address must wait (not counted). */
  recordFailure(clientAddress: string, now = new Date()): Promise<number> {
    return this.run(clientAddress, now, 'take');
  }

  /** 0 when the address may still fail, else the milliseconds it must wait; counts nothing. */
  waitBeforeNextFailure(clientAddress: string, now = new Date()): Promise<number> {
    return this.run(clientAddress, now, 'peek');
  }

  private async run(clientAddress: string, now: Date, mode: 'take' | 'peek'): Promise<number> {
    return (await this.redis.run(
      AUTH_FAILURE_SCRIPT,
      [this.redis.authFailuresKey(authFailureBucket(clientAddress))],
      [now.getTime(), this.perMinute, mode],
    )) as number;
  }
}
