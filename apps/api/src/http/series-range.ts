import { MAX_SERIES_POINTS, seriesDates, type SeriesStep } from '#app/domain';
import { ApiError } from '../errors/api-error.js';

/**
 * The dates of a series from `from` to `to` by `step` (the start of each step), or the 400
 * RANGE_TOO_LARGE of a range with more than `maxPoints` of them.
 */
export function seriesDatesWithin(
  step: SeriesStep,
  from: string,
  to: string,
  maxPoints = MAX_SERIES_POINTS,
): string[] {
  const dates = seriesDates(step, from, to, maxPoints);
  if (dates) return dates;
  throw new ApiError(
    400,
    'RANGE_TOO_LARGE',
    `From ${from} to ${to} by ${step} is more than ${maxPoints} points: take a longer step or a shorter range`,
    { provided: { from, to, step }, max_points: maxPoints },
  );
}

/** The 400 INVALID_RANGE of a range whose start is after its end. */
export function refuseReversedRange(from: string | undefined, to: string): void {
  if (from !== undefined && from > to) {
    throw new ApiError(400, 'INVALID_RANGE', `from (${from}) is after to (${to})`, {
      provided: { from, to },
    });
  }
}
