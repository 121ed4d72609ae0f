import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { percentileRank, quantile, summarise } from './statistics.js';

/** numpy's "linear" percentile, written the slow and obvious way: the oracle. */
function naiveQuantile(sample: number[], p: number): number {
  const sorted = [...sample].sort((a, b) => a - b);
  const h = (sorted.length - 1) * p;
  const lower = sorted[Math.floor(h)]!;
  const upper = sorted[Math.ceil(h)]!;
  return lower + (h - Math.floor(h)) * (upper - lower);
}

const prices = fc.array(
  fc.integer({ min: 0, max: 1_000_000 }).map((cents) => cents / 100),
  {
    minLength: 1,
    maxLength: 60,
  },
);

describe('quantile', () => {
  it('matches numpy on known samples', () => {
    expect(quantile([1, 2, 3, 4], 0.25)).toBe(1.75);
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([1, 2, 3, 4], 0.75)).toBe(3.25);
    expect(quantile([10, 20, 30], 0.5)).toBe(20);
    expect(quantile([], 0.5)).toBeNull();
  });

  it('agrees with the naive oracle on any sample and p', () => {
    fc.assert(
      fc.property(prices, fc.double({ min: 0, max: 1, noNaN: true }), (sample, p) => {
        const ascending = [...sample].sort((a, b) => a - b);
        expect(quantile(ascending, p)).toBeCloseTo(naiveQuantile(sample, p), 9);
      }),
    );
  });
});

describe('summarise', () => {
  it('gives min, quartiles and max in any input order', () => {
    expect(summarise([40, 10, 30, 20])).toEqual({
      sample_size: 4,
      min: 10,
      p25: 17.5,
      median: 25,
      p75: 32.5,
      max: 40,
    });
  });

  it('gives null figures below three values, with the size', () => {
    expect(summarise([5, 7])).toEqual({
      sample_size: 2,
      min: null,
      p25: null,
      median: null,
      p75: null,
      max: null,
    });
  });

  it('orders its figures and bounds them by the sample', () => {
    fc.assert(
      fc.property(
        prices.filter((sample) => sample.length >= 3),
        (sample) => {
          const { min, p25, median, p75, max } = summarise(sample);
          expect(min).toBe(Math.min(...sample));
          expect(max).toBe(Math.max(...sample));
          expect(p25!).toBeGreaterThanOrEqual(min!);
          expect(median!).toBeGreaterThanOrEqual(p25!);
          expect(p75!).toBeGreaterThanOrEqual(median!);
          expect(max!).toBeGreaterThanOrEqual(p75!);
        },
      ),
    );
  });
});

describe('percentileRank', () => {
  it('counts half of the equal values', () => {
    // below 1, equal 2, of 4: 100 × (1 + 1) / 4
    expect(percentileRank([10, 20, 20, 30], 20)).toBe(50);
    expect(percentileRank([10, 20, 30], 10)).toBe(16.7);
    expect(percentileRank([10, 20, 30], 5)).toBe(0);
  });

  it('is null below three values', () => {
    expect(percentileRank([10, 20], 10)).toBeNull();
  });

  it('agrees with the definition on any sample', () => {
    fc.assert(
      fc.property(
        prices.filter((sample) => sample.length >= 3),
        fc.nat(),
        (sample, pick) => {
          const value = sample[pick % sample.length]!;
          const below = sample.filter((x) => x < value).length;
          const equal = sample.filter((x) => x === value).length;
          const expected = Math.round((1000 * (below + 0.5 * equal)) / sample.length) / 10;
          expect(percentileRank(sample, value)).toBe(expected);
        },
      ),
    );
  });
});
