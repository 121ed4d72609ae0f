import {
  applyDecorators,
  CanActivate,
  ExecutionContext,
  Injectable,
  UseGuards,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { admittedByLane } from '../http/read-lane.js';
import { RequestAdmission } from './request-admission.js';
import { DeclareAccess, routeAdmissionRule, type RouteAccess } from './route-access.js';

/**
 * Admits a valid key that the route's declarations allow (KeyAccess, CreditCost) and meters the
 * request: see RequestAdmission. A route of credit cost 1 (or none stated) is charged, one of
 * cost 0 is bounded by the burst limit only.
 */
@Injectable()
class ApiKeyGuard implements CanActivate {
  constructor(private readonly admission: RequestAdmission) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    // The lane admitted it under the same rule, and found no answer kept for it.
    if (admittedByLane(request)) return true;
    await this.admission.admit(request, routeAdmissionRule(request));
    return true;
  }
}

/**
 * Every route of the controller takes an API key allowed by `access`: declared once, read by the
 * key guard and by the read lane ahead of Nest.
 */
export function KeyAccess(access: RouteAccess = {}): ClassDecorator {
  return applyDecorators(DeclareAccess(access), UseGuards(ApiKeyGuard));
}
