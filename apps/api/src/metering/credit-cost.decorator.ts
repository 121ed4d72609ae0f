import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';

export const CREDIT_COST = 'credit-cost';

/**
 * What one successful call costs: 1 (counted in the hourly window and charged a credit) or 0
 * (bounded by the burst limit only). The key guard meters by it and the OpenAPI document shows
 * it as `x-credit-cost`, so the two cannot differ.
 */
export function CreditCost(cost: 0 | 1): ClassDecorator & MethodDecorator {
  return applyDecorators(
    SetMetadata(CREDIT_COST, cost),
    ApiExtension('x-credit-cost', cost),
  ) as ClassDecorator & MethodDecorator;
}
