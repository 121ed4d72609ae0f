import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { AuthFailureLimiter, secretsEqual } from '#app/access';
import { AppConfig } from '#app/config';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error.js';
import { tooManyFailedAuthentications } from '../metering/limit-exceeded.js';

/**
 * Admits `Authorization: Bearer <ADMIN_TOKEN>`; with no ADMIN_TOKEN set, the admin API is off.
 * A wrong token counts against the client address like a wrong API key.
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(
    private readonly config: AppConfig,
    private readonly authFailures: AuthFailureLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const expected = this.config.adminToken;
    const presented = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    if (!expected) {
      throw new ApiError(401, 'ADMIN_DISABLED', 'The admin API is disabled', {
        hint: 'Set ADMIN_TOKEN to enable it, or use the command-line tool',
      });
    }
    if (!presented || !secretsEqual(presented, expected)) {
      const now = new Date();
      const waitMs = await this.authFailures.recordFailure(request.ip, now);
      if (waitMs > 0) throw tooManyFailedAuthentications(this.authFailures.perMinute, waitMs, now);
      throw new ApiError(401, 'AUTH_INVALID', 'A valid admin token is required', {
        hint: 'Send "Authorization: Bearer <ADMIN_TOKEN>"',
      });
    }
    return true;
  }
}
