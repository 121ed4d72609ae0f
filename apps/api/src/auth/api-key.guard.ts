import { CanActivate, ExecutionContext, Injectable, mixin, Type } from '@nestjs/common';
import { ApiKeysService, type ApiKeyScope } from '#app/access';
import { AppConfig, type Feature } from '#app/config';
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

/**
 * A guard that admits a valid, unexpired, unrevoked key carrying `scope` and, when `feature`
 * is given, on a plan that includes it.
 */
export function ApiKeyGuard(scope: ApiKeyScope, feature?: Feature): Type<CanActivate> {
  @Injectable()
  class ScopedApiKeyGuard implements CanActivate {
    constructor(
      private readonly keys: ApiKeysService,
      private readonly config: AppConfig,
    ) {}

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
      if (feature) this.requireFeature(result.principal.plan, feature);
      request.apiKey = result.principal;
      return true;
    }

    private requireFeature(planName: string, wanted: Feature): void {
      const plans = this.config.plans;
      if (plans.find((plan) => plan.name === planName)?.features.includes(wanted)) return;
      const cheapest = plans.find((plan) => plan.features.includes(wanted));
      throw new ApiError(403, 'PLAN_REQUIRED', `Your plan does not include ${wanted}`, {
        required_plan: cheapest?.name ?? null,
        current_plan: planName,
        upgrade_url: this.config.upgradeUrl,
      });
    }
  }
  return mixin(ScopedApiKeyGuard);
}
