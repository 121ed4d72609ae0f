import { PERIOD_EXAMPLES, type Period, type PeriodResult } from '#app/domain';
import { ApiError } from '../errors/api-error.js';

/** A valid period, or the documented 400 for the input. */
export function periodOrThrow(result: PeriodResult, provided: string): Period {
  if (result.ok) return result.period;
  throw new ApiError(400, result.code, result.message, {
    provided,
    ...(result.code === 'INVALID_PERIOD_FORMAT' ? { examples: PERIOD_EXAMPLES } : {}),
  });
}
