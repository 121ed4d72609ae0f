/** The steps a pricing series may take. */
export const SERIES_STEPS = ['week', 'month', 'quarter'] as const;
export type SeriesStep = (typeof SERIES_STEPS)[number];

/** A series has at most this many points. */
export const MAX_SERIES_POINTS = 520;

/** The steps of the price index (GET /benchmarks/series): a sample of every page per point. */
export const PRICE_INDEX_STEPS = ['month', 'quarter'] as const satisfies readonly SeriesStep[];
export type PriceIndexStep = (typeof PRICE_INDEX_STEPS)[number];

/** The price index has at most this many points: ten years by month. */
export const MAX_PRICE_INDEX_POINTS = 120;

export function isSeriesStep(value: string): value is SeriesStep {
  return (SERIES_STEPS as readonly string[]).includes(value);
}

function toDate(yyyymmdd: string): Date {
  return new Date(
    Date.UTC(
      Number(yyyymmdd.slice(0, 4)),
      Number(yyyymmdd.slice(4, 6)) - 1,
      Number(yyyymmdd.slice(6, 8)),
    ),
  );
}

/** A moment's UTC calendar date as YYYYMMDD (today's, for the date parameters' defaults). */
export function utcDate(date: Date): string {
  return date.toISOString().slice(0, 10).replaceAll('-', '');
}

/** The first day (YYYYMMDD) of the step that contains `date`: ISO weeks start on Monday. */
export function stepStart(step: SeriesStep, date: string): string {
  const day = toDate(date);
  if (step === 'week') {
    const sinceMonday = (day.getUTCDay() + 6) % 7;
    return utcDate(new Date(day.getTime() - sinceMonday * 86_400_000));
  }
  const month = day.getUTCMonth();
  const firstMonth = step === 'quarter' ? month - (month % 3) : month;
  return utcDate(new Date(Date.UTC(day.getUTCFullYear(), firstMonth, 1)));
}

function nextStep(step: SeriesStep, start: string): string {
  const day = toDate(start);
  if (step === 'week') return utcDate(new Date(day.getTime() + 7 * 86_400_000));
  const months = step === 'quarter' ? 3 : 1;
  return utcDate(new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + months, 1)));
}

/**
 * The starts of the steps from the one containing `from` to the one containing `to`, oldest
 * first; null when there would be more than `limit` (the caller's 400), so that a range of
 * centuries is never listed.
 */
export function seriesDates(
  step: SeriesStep,
  from: string,
  to: string,
  limit = MAX_SERIES_POINTS,
): string[] | null {
  const last = stepStart(step, to);
  const dates: string[] = [];
  for (let date = stepStart(step, from); date <= last; date = nextStep(step, date)) {
    if (dates.length === limit) return null;
    dates.push(date);
  }
  return dates;
}
