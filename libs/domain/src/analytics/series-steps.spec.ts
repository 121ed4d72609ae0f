import {
  addMonths,
  addWeeks,
  format,
  parse,
  startOfISOWeek,
  startOfMonth,
  startOfQuarter,
} from 'date-fns';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_SERIES_POINTS, seriesDates, stepStart } from './series-steps.js';

const parseDay = (text: string) => parse(text, 'yyyyMMdd', new Date(2000, 0, 1));
const day = fc
  .date({ min: new Date(1990, 0, 1), max: new Date(2060, 11, 31), noInvalidDate: true })
  .map((date) => format(date, 'yyyyMMdd'));

describe('stepStart', () => {
  it('starts ISO weeks on Monday, months and quarters on their first day', () => {
    expect(stepStart('week', '20250101')).toBe('20241230');
    expect(stepStart('week', '20250105')).toBe('20241230');
    expect(stepStart('week', '20250106')).toBe('20250106');
    expect(stepStart('month', '20250228')).toBe('20250201');
    expect(stepStart('quarter', '20250630')).toBe('20250401');
    expect(stepStart('quarter', '20251231')).toBe('20251001');
  });

  it('agrees with date-fns on any day', () => {
    fc.assert(
      fc.property(day, (text) => {
        const date = parseDay(text);
        expect(stepStart('week', text)).toBe(format(startOfISOWeek(date), 'yyyyMMdd'));
        expect(stepStart('month', text)).toBe(format(startOfMonth(date), 'yyyyMMdd'));
        expect(stepStart('quarter', text)).toBe(format(startOfQuarter(date), 'yyyyMMdd'));
      }),
    );
  });
});

describe('seriesDates', () => {
  it('lists the step starts from the step of from to the step of to', () => {
    expect(seriesDates('month', '20250115', '20250410')).toEqual([
      '20250101',
      '20250201',
      '20250301',
      '20250401',
    ]);
    expect(seriesDates('quarter', '20241231', '20250101')).toEqual(['20241001', '20250101']);
    expect(seriesDates('week', '20250105', '20250106')).toEqual(['20241230', '20250106']);
    expect(seriesDates('month', '20250301', '20250301')).toEqual(['20250301']);
  });

  it('steps evenly, as date-fns adds weeks and months', () => {
    fc.assert(
      fc.property(day, fc.integer({ min: 0, max: 60 }), (from, count) => {
        const start = startOfISOWeek(parseDay(from));
        const to = format(addWeeks(start, count), 'yyyyMMdd');
        const weeks = seriesDates('week', from, to)!;
        expect(weeks).toHaveLength(count + 1);
        weeks.forEach((date, i) => expect(date).toBe(format(addWeeks(start, i), 'yyyyMMdd')));
        const months = seriesDates(
          'month',
          from,
          format(addMonths(parseDay(from), count), 'yyyyMMdd'),
        )!;
        expect(months).toHaveLength(count + 1);
      }),
    );
  });

  it('refuses more than 520 points, and takes exactly 520', () => {
    expect(
      seriesDates('week', '20000103', format(addWeeks(new Date(2000, 0, 3), 519), 'yyyyMMdd')),
    ).toHaveLength(MAX_SERIES_POINTS);
    expect(
      seriesDates('week', '20000103', format(addWeeks(new Date(2000, 0, 3), 520), 'yyyyMMdd')),
    ).toBeNull();
    expect(seriesDates('month', '10000101', '99991231')).toBeNull();
  });
});
