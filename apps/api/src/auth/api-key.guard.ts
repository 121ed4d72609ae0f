import { CanActivate, ExecutionContext, Injectable, mixin, Type } from '@nestjs/common';
import { ApiKeysService, type ApiKeyScope } from '#app/access';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error.js';
import { presentedApiKey } from './presented-key.js';
import './authenticated-request.js';

const REFUSALS = {
  missing: 'An API key is required',
  malformed: 'The API key is malformed',
  unknown: 'The API key is not valid',
  revoked: 'The API key has been revoked',
  expired: 'The API key has expired',
} as const;

const HINT = 'Send the key as "Authorization: Bearer <key>" or "X-API-Key: <key>"';

/** A guard that admits a valid, unexpired, unrevoked key carrying `scope`. */
export function ApiKeyGuard(scope: ApiKeyScope): Type<CanActivate> {
  @Injectable()
  class ScopedApiKeyGuard implements CanActivate {
    constructor(private readonly keys: ApiKeysService) {}

    async canActivate(context: ExecutionContext): Promise<boolean> {
      const request = context.switchToHttp().getRequest<FastifyRequest>();
      const result = await this.keys.authenticate(presentedApiKey(request));
      if (!result.ok) {
        throw new ApiError(401, 'AUTH_INVALID', REFUSALS[result.reason], { hint: HINT });
      }
      if (!result.principal.scopes.includes(scope)) {
        throw new ApiError(403, 'SCOPE_REQUIRED', `This key lacks the "${scope}" scope`, {
          required_scope: scope,
          key_scopes: result.principal.scopes,
        });
      }
      request.apiKey = result.principal;
      return true;
    }
  }
  return mixin(ScopedApiKeyGuard);
}
