import { ApiExtension } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { routeConfigEntry, WithRouteConfig, WithRoutesConfig } from '../http/route-config.js';

/** The route config key of a route's credit cost. */
const CREDIT_COST = 'creditCost';

/**
 * What one successful call costs, on a controller (each of its routes) or on one route: 1
 * (counted in the hourly window and charged a credit) or 0 (bounded by the burst limit only). The
 * key guard and the read lane meter by it (routeAdmissionRule) and the OpenAPI document shows it
 * as `x-credit-cost`, so none of the three can differ.
 */
export function CreditCost(cost: 0 | 1): ClassDecorator & MethodDecorator {
  return ((target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => {
    if (descriptor) {
      ApiExtension('x-credit-cost', cost)(target, key!, descriptor);
      WithRouteConfig({ [CREDIT_COST]: cost })(target, key!, descriptor);
    } else {
      ApiExtension('x-credit-cost', cost)(target as () => void);
      WithRoutesConfig({ [CREDIT_COST]: cost })(target as () => void);
    }
  }) as ClassDecorator & MethodDecorator;
}

/** The credit cost the request's route states, if it states one. */
export function creditCostOf(request: FastifyRequest): 0 | 1 | undefined {
  return routeConfigEntry<0 | 1>(request, CREDIT_COST);
}
