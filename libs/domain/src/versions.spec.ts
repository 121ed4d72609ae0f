import { describe, expect, it } from 'vitest';
import { isValidVersion } from './versions.js';

describe('isValidVersion', () => {
  it.each(['20250101', '20251231', '20250430', '20240229', '20000229'])(
    'accepts the real date %s',
    (version) => {
      expect(isValidVersion(version)).toBe(true);
    },
  );

  it.each([
    ['29 February of a common year', '20230229'],
    ['29 February of a century year that is not a leap year', '19000229'],
    ['month 13', '20251301'],
    ['month 00', '20250001'],
    ['day 00', '20250100'],
    ['31 April', '20250431'],
    ['31 February', '20250231'],
    ['seven digits', '2025011'],
    ['nine digits', '202501011'],
    ['dashes', '2025-01-01'],
    ['letters', '2025O1O1'],
    ['surrounding spaces', ' 20250101 '],
    ['the empty string', ''],
    ['a year before 1000, which no read could address', '05000101'],
  ])('refuses %s (%s)', (_why, version) => {
    expect(isValidVersion(version)).toBe(false);
  });
});
