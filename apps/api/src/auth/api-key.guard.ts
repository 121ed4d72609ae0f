import { CanActivate, ExecutionContext, Injectable, mixin, Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  ApiKeysService,
  AuthFailureLimiter,
  RequestMeter,
  type ApiKeyPrincipal,
  type ApiKeyScope,
} from '#app/access';
import { AppConfig, type Feature, type PlanDefinition } from '#app/config';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error.js';
import { usesCodedErrorShape } from '../errors/error-body.js';
import { CREDIT_COST } from '../metering/credit-cost.decorator.js';
import { limitExceeded, tooManyFailedAuthentications } from '../metering/limit-exceeded.js';
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
 * A guard that admits a valid, unexpired, unrevoked key carrying `scope` (any key when none is
 * given) and, when `feature` is given, on a plan that includes it. It meters the request in
 * the same step (one Redis round trip): a route of credit cost 1 (or none stated) is counted and
 * charged (should its answer turn out uncharged, settleMetering gives the charge back and bounds
 * the answer by the burst limit; should Redis fail, the request answers 503 and RequestMeter
 * gives back whatever Redis counted), one of cost 0 is bounded by the burst limit only; a refused
 * scope or plan still counts against the burst limit. Failed authentications count against the
 * client address.
 */
export function ApiKeyGuard(scope?: ApiKeyScope, feature?: Feature): Type<CanActivate> {
  @Injectable()
  class ScopedApiKeyGuard implements CanActivate {
    constructor(
      private readonly keys: ApiKeysService,
      private readonly meter: RequestMeter,
      private readonly authFailures: AuthFailureLimiter,
      private readonly config: AppConfig,
      private readonly reflector: Reflector,
    ) {}

    async canActivate(context: ExecutionContext): Promise<boolean> {
      const request = context.switchToHttp().getRequest<FastifyRequest>();
      const now = new Date();
      // An address past its failed authentications gets no database read for a key this
      // process does not know already.
      const result = await this.keys.authenticate(presentedApiKey(request), now, () =>
        this.refuseBlockedAddress(request.ip, now, 'peek'),
      );
      if (!result.ok) {
        await this.refuseBlockedAddress(request.ip, now, 'count');
        throw new ApiError(401, 'AUTH_INVALID', REFUSALS[result.reason], { hint: HINT });
      }
      const principal = result.principal;
      request.apiKeyId = principal.id;
      const plan = this.config.planNamed(principal.plan);
      // A plan taken out of the configuration has no limits to meter by.
      if (!plan) {
        throw this.planRequired(
          principal.plan,
          `The plan "${principal.plan}" is no longer offered`,
        );
      }
      const refusal = this.refusal(principal, plan);
      const cost = this.reflector.getAllAndOverride<0 | 1 | undefined>(CREDIT_COST, [
        context.getHandler(),
        context.getClass(),
      ]);
      // A route that states no cost is charged: forgetting @CreditCost must not make it free.
      const mode = cost !== 0 && !refusal ? 'charge' : 'uncharged';
      request.metering = await this.meter.meter(principal.id, plan, mode, now);
      const { reading } = request.metering;
      if (reading.outcome !== 'ok') {
        throw limitExceeded(reading, usesCodedErrorShape(request.url), now);
      }
      if (refusal) throw refusal;
      request.apiKey = principal;
      return true;
    }

    /** 429 when the address is past its failed authentications; `count` adds this failure. */
    private async refuseBlockedAddress(
      address: string,
      now: Date,
      action: 'peek' | 'count',
    ): Promise<void> {
      const waitMs =
        action === 'count'
          ? await this.authFailures.recordFailure(address, now)
          : await this.authFailures.waitBeforeNextFailure(address, now);
      if (waitMs > 0) throw tooManyFailedAuthentications(this.authFailures.perMinute, waitMs, now);
    }

    private refusal(principal: ApiKeyPrincipal, plan: PlanDefinition): ApiError | null {
      if (scope && !principal.scopes.includes(scope)) {
        return new ApiError(403, 'SCOPE_REQUIRED', `This key lacks the "${scope}" scope`, {
          required_scope: scope,
          key_scopes: principal.scopes,
        });
      }
      if (feature && !plan.features.includes(feature)) {
        return this.planRequired(plan.name, `Your plan does not include ${feature}`);
      }
      return null;
    }

    /** `required_plan` is the cheapest plan with the route's feature (any plan without one). */
    private planRequired(planName: string, message: string): ApiError {
      const cheapest = this.config.plans.find(
        (plan) => !feature || plan.features.includes(feature),
      );
      return new ApiError(403, 'PLAN_REQUIRED', message, {
        required_plan: cheapest?.name ?? null,
        current_plan: planName,
        upgrade_url: this.config.upgradeUrl,
      });
    }
  }
  return mixin(ScopedApiKeyGuard);
}
