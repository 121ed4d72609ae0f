import { Injectable } from '@nestjs/common';
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
import { errorShapeOf } from '../errors/error-shape.js';
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

/** What a route asks of the key that calls it. */
export interface AdmissionRule {
  /** The scope the key must carry; any key when absent. */
  scope?: ApiKeyScope;
  /** The plan feature the route belongs to; none when absent. */
  feature?: Feature;
  /** Whether an admitted request is counted and charged (cost 1) or only burst-bounded (cost 0). */
  charged: boolean;
}

/**
 * Admits a request under a rule, or throws the ApiError it is refused with: a valid, unexpired,
 * unrevoked key carrying the rule's scope, on a plan that includes its feature. It meters the
 * request in the same step (one Redis round trip): a charged route is counted and charged (should
 * its answer turn out uncharged, settleMetering gives the charge back and bounds the answer by
 * the burst limit; should Redis fail, the request answers 503 and RequestMeter gives back
 * whatever Redis counted), an uncharged one is bounded by the burst limit only; a refused scope
 * or plan still counts against the burst limit. Failed authentications count against the client
 * address. The key guard, the read lane (ahead of Nest) and the MCP endpoint admit through it.
 */
@Injectable()
export class RequestAdmission {
  constructor(
    private readonly keys: ApiKeysService,
    private readonly meter: RequestMeter,
    private readonly authFailures: AuthFailureLimiter,
    private readonly config: AppConfig,
  ) {}

  async admit(request: FastifyRequest, rule: AdmissionRule): Promise<void> {
    await this.meterAuthenticated(request, await this.authenticate(request), rule);
  }

  /**
   * The second step of admit, for a caller that has something to learn between the two (the read
   * lane, whether the answer is a 304). `revalidation`: the answer is known to be a 304 already
   * (the lane keeps it, and the request's If-None-Match names its ETag), so a charged route
   * meters it as `revalidate`: refused as a charge would be, else only a burst unit.
   */
  async meterAuthenticated(
    request: FastifyRequest,
    principal: ApiKeyPrincipal,
    rule: AdmissionRule,
    { revalidation = false }: { revalidation?: boolean } = {},
  ): Promise<void> {
    const now = new Date();
    const plan = this.config.planNamed(principal.plan);
    // A plan taken out of the configuration has no limits to meter by.
    if (!plan) {
      throw this.planRequired(
        rule,
        principal.plan,
        `The plan "${principal.plan}" is no longer offered`,
      );
    }
    const refusal = this.refusal(rule, principal, plan);
    const mode = !rule.charged || refusal ? 'uncharged' : revalidation ? 'revalidate' : 'charge';
    request.metering = await this.meter.meter(principal.id, plan, mode, now);
    const { reading } = request.metering;
    if (reading.outcome !== 'ok') {
      throw limitExceeded(reading, errorShapeOf(request), now);
    }
    if (refusal) throw refusal;
    request.apiKey = principal;
  }

  /**
   * The valid key the request carries, or the 401 it is refused with (the failure counted
   * against the client address; 429 past their limit). Neither metered nor charged: admit
   * meters what it admits.
   */
  async authenticate(request: FastifyRequest, now = new Date()): Promise<ApiKeyPrincipal> {
    // An address past its failed authentications gets no database read for a key this
    // process does not know already.
    const result = await this.keys.authenticate(presentedApiKey(request), now, () =>
      this.refuseBlockedAddress(request.ip, now, 'peek'),
    );
    if (!result.ok) {
      await this.refuseBlockedAddress(request.ip, now, 'count');
      throw new ApiError(401, 'AUTH_INVALID', REFUSALS[result.reason], { hint: HINT });
    }
    request.apiKeyId = result.principal.id;
    return result.principal;
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

  private refusal(
    rule: AdmissionRule,
    principal: ApiKeyPrincipal,
    plan: PlanDefinition,
  ): ApiError | null {
    const { scope, feature } = rule;
    if (scope && !principal.scopes.includes(scope)) {
      return new ApiError(403, 'SCOPE_REQUIRED', `This key lacks the "${scope}" scope`, {
        required_scope: scope,
        key_scopes: principal.scopes,
      });
    }
    if (feature && !plan.features.includes(feature)) {
      return this.planRequired(rule, plan.name, `Your plan does not include ${feature}`);
    }
    return null;
  }

  /** `required_plan` is the cheapest plan with the route's feature (any plan without one). */
  private planRequired(rule: AdmissionRule, planName: string, message: string): ApiError {
    const cheapest = this.config.plans.find(
      (plan) => !rule.feature || plan.features.includes(rule.feature),
    );
    return new ApiError(403, 'PLAN_REQUIRED', message, {
      required_plan: cheapest?.name ?? null,
      current_plan: planName,
      upgrade_url: this.config.upgradeUrl,
    });
  }
}
