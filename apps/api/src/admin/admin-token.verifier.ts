import { Injectable } from '@nestjs/common';
import { AuthFailureLimiter, secretsEqual } from '#app/access';
import { AppConfig } from '#app/config';
import { ApiError } from '../errors/api-error.js';
import { tooManyFailedAuthentications } from '../metering/limit-exceeded.js';

const WRONG_TOKEN = () =>
  new ApiError(401, 'AUTH_INVALID', 'A valid admin token is required', {
    hint: 'Send "Authorization: Bearer <ADMIN_TOKEN>"',
  });

/**
 * Checks a presented admin token (admin API and queue dashboard alike). A wrong one counts
 * against the client address; past the limit the address is refused before any comparison, so
 * a guesser cannot tell the right token by a different answer.
 */
@Injectable()
export class AdminTokenVerifier {
  constructor(
    private readonly config: AppConfig,
    private readonly authFailures: AuthFailureLimiter,
  ) {}

  get enabled(): boolean {
    return this.config.adminToken !== null;
  }

  /** Null when `presented` is the admin token, else the 401 or 429 to answer. */
  async refusal(
    presented: string | undefined,
    clientAddress: string,
    now = new Date(),
  ): Promise<ApiError | null> {
    const expected = this.config.adminToken;
    const blockedMs = await this.authFailures.waitBeforeNextFailure(clientAddress, now);
    if (blockedMs > 0) return this.tooMany(blockedMs, now);
    if (expected && presented !== undefined && secretsEqual(presented, expected)) return null;
    const waitMs = await this.authFailures.recordFailure(clientAddress, now);
    return waitMs > 0 ? this.tooMany(waitMs, now) : WRONG_TOKEN();
  }

  private tooMany(waitMs: number, now: Date): ApiError {
    return tooManyFailedAuthentications(this.authFailures.perMinute, waitMs, now);
  }
}
