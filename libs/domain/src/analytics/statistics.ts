/**
 * The quantile `p` (0..1) of an ascending sample, interpolating linearly between ranks: on
 * x0..x(n-1) it stands at index h = (n-1)p (numpy's default, "linear"). Null for no sample.
 */
export function quantile(ascending: readonly number[], p: number): number | null {
  if (ascending.length === 0) return null;
  const h = (ascending.length - 1) * p;
  const below = Math.floor(h);
  const above = Math.min(below + 1, ascending.length - 1);
  return ascending[below]! + (h - below) * (ascending[above]! - ascending[below]!);
}

interface SampleSummary {
  sample_size: number;
  min: number | null;
  p25: number | null;
  median: number | null;
  p75: number | null;
  max: number | null;
}

/** Below this many values a summary's figures are null: a median of two says little. */
const MIN_SAMPLE_SIZE = 3;

/** Min, quartiles and max of a sample (any order), unrounded; null figures below MIN_SAMPLE_SIZE. */
export function summarise(sample: readonly number[]): SampleSummary {
  const ascending = [...sample].sort((a, b) => a - b);
  const figure = (p: number) =>
    ascending.length < MIN_SAMPLE_SIZE ? null : quantile(ascending, p);
  return {
    sample_size: ascending.length,
    min: figure(0),
    p25: figure(0.25),
    median: figure(0.5),
    p75: figure(0.75),
    max: figure(1),
  };
}

/**
 * Where `value` stands in `sample`: 100 × (below + 0.5 × equal) / size, rounded to 1 decimal;
 * null below MIN_SAMPLE_SIZE.
 */
export function percentileRank(sample: readonly number[], value: number): number | null {
  if (sample.length < MIN_SAMPLE_SIZE) return null;
  let below = 0;
  let equal = 0;
  for (const x of sample) {
    if (x < value) below++;
    else if (x === value) equal++;
  }
  return Math.round((1000 * (below + 0.5 * equal)) / sample.length) / 10;
}
