import { isValidVersion, PERIOD_EXAMPLES, type Period, type PeriodResult } from '#app/domain';
import { ApiError } from '../errors/api-error.js';

/** A valid period, or the documented 400 for the input. */
export function periodOrThrow(result: PeriodResult, provided: string): Period {
  if (result.ok) return result.period;
  throw new ApiError(400, result.code, result.message, {
    provided,
    ...(result.code === 'INVALID_PERIOD_FORMAT' ? { examples: PERIOD_EXAMPLES } : {}),
  });
}

/** A date parameter (`as_of`...) as it was given, once it names a calendar day; else 400. */
export function calendarDateOrThrow(parameter: string, provided: string): string {
  if (isValidVersion(provided)) return provided;
  throw new ApiError(400, 'INVALID_DATE', `${parameter} must be a real date in YYYYMMDD form`, {
    parameter,
    provided,
  });
}
