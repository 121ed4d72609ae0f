import type { ApiKeyScope } from '#app/access';
import type { Feature } from '#app/config';
import type { FastifyRequest } from 'fastify';
import { routeConfigEntry, WithRoutesConfig } from '../http/route-config.js';
import { creditCostOf } from '../metering/credit-cost.decorator.js';
import type { AdmissionRule } from './request-admission.js';

/** Which keys may call a route: one with `scope` (any key without), on a plan with `feature`. */
export interface RouteAccess {
  scope?: ApiKeyScope;
  feature?: Feature;
}

/** The route config key of a route's access rule. */
const ACCESS = 'keyAccess';

/** Declares who may call every route of a controller (KeyAccess applies it with the guard). */
export function DeclareAccess(access: RouteAccess): ClassDecorator {
  return WithRoutesConfig({ [ACCESS]: access });
}

/** Whether a route's config declares who may call it (a route of a KeyAccess controller). */
export function declaresAccess(config: Record<string, unknown> | undefined): boolean {
  return config?.[ACCESS] !== undefined;
}

/**
 * The rule a request is admitted under, from its route's declarations alone: its access and
 * its credit cost. A route that states no cost is charged: forgetting @CreditCost must not make
 * it free. The key guard and the read lane both admit by it, so they cannot differ.
 */
export function routeAdmissionRule(request: FastifyRequest): AdmissionRule {
  const access = routeConfigEntry<RouteAccess>(request, ACCESS) ?? {};
  return { ...access, charged: creditCostOf(request) !== 0 };
}
