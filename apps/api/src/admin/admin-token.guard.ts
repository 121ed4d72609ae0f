import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { secretsEqual } from '#app/access';
import { AppConfig } from '#app/config';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error.js';

/** Admits `Authorization: Bearer <ADMIN_TOKEN>`; with no ADMIN_TOKEN set, the admin API is off. */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const expected = this.config.adminToken;
    const presented = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    if (!expected) {
      throw new ApiError(401, 'ADMIN_DISABLED', 'The admin API is disabled', {
        hint: 'Set ADMIN_TOKEN to enable it, or use the command-line tool',
      });
    }
    if (!presented || !secretsEqual(presented, expected)) {
      throw new ApiError(401, 'AUTH_INVALID', 'A valid admin token is required', {
        hint: 'Send "Authorization: Bearer <ADMIN_TOKEN>"',
      });
    }
    return true;
  }
}
