import { CanActivate, ExecutionContext, Injectable, mixin, Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { ApiKeyScope } from '#app/access';
import type { Feature } from '#app/config';
import type { FastifyRequest } from 'fastify';
import { admittedByLane } from '../http/immutable-read-lane.js';
import { CREDIT_COST } from '../metering/credit-cost.decorator.js';
import { RequestAdmission } from './request-admission.js';

/**
 * A guard that admits a valid key carrying `scope` (any key when none is given) on a plan that
 * includes `feature` (when given), and meters the request: see RequestAdmission. A route of
 * credit cost 1 (or none stated) is charged, one of cost 0 is bounded by the burst limit only.
 */
export function ApiKeyGuard(scope?: ApiKeyScope, feature?: Feature): Type<CanActivate> {
  @Injectable()
  class ScopedApiKeyGuard implements CanActivate {
    constructor(
      private readonly admission: RequestAdmission,
      private readonly reflector: Reflector,
    ) {}

    async canActivate(context: ExecutionContext): Promise<boolean> {
      const request = context.switchToHttp().getRequest<FastifyRequest>();
      // The lane admitted it under the same rule, and found no answer kept for it.
      if (admittedByLane(request)) return true;
      const cost = this.reflector.getAllAndOverride<0 | 1 | undefined>(CREDIT_COST, [
        context.getHandler(),
        context.getClass(),
      ]);
      // A route that states no cost is charged: forgetting @CreditCost must not make it free.
      await this.admission.admit(request, {
        scope,
        feature,
        charged: cost !== 0,
      });
      return true;
    }
  }
  return mixin(ScopedApiKeyGuard);
}
