import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error.js';
import { AdminTokenVerifier } from './admin-token.verifier.js';
import { bearerToken } from '../auth/presented-key.js';

/** Admits `Authorization: Bearer <ADMIN_TOKEN>`; with no ADMIN_TOKEN set, the admin API is off. */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(private readonly verifier: AdminTokenVerifier) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (!this.verifier.enabled) {
      throw new ApiError(401, 'ADMIN_DISABLED', 'The admin API is disabled', {
        hint: 'Set ADMIN_TOKEN to enable it, or use the command-line tool',
      });
    }
    const refusal = await this.verifier.refusal(
      bearerToken(request.headers.authorization),
      request.ip,
    );
    if (refusal) throw refusal;
    return true;
  }
}
