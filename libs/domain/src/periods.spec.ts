import {
  endOfISOWeek,
  endOfMonth,
  endOfQuarter,
  format,
  getISOWeek,
  getISOWeekYear,
  getISOWeeksInYear,
  isValid,
  parse,
  setISOWeek,
  startOfISOWeek,
  startOfQuarter,
} from 'date-fns';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isPeriodClosed,
  latestIsoWeek,
  parseMonth,
  parsePeriod,
  parseQuarter,
  parseVersion,
  parseWeek,
  PERIOD_EXAMPLES,
  type Period,
  type PeriodErrorCode,
  type PeriodFormat,
  type PeriodResult,
} from './periods.js';

const CODES: readonly PeriodErrorCode[] = [
  'INVALID_VERSION',
  'INVALID_QUARTER',
  'INVALID_MONTH',
  'INVALID_WEEK',
  'INVALID_PERIOD_FORMAT',
];

const PARSERS: Record<PeriodFormat, (input: string) => PeriodResult> = {
  version: parseVersion,
  quarter: parseQuarter,
  month: parseMonth,
  week: parseWeek,
};

const CODE_OF: Record<PeriodFormat, PeriodErrorCode> = {
  version: 'INVALID_VERSION',
  quarter: 'INVALID_QUARTER',
  month: 'INVALID_MONTH',
  week: 'INVALID_WEEK',
};

function period(result: PeriodResult): Period {
  if (!result.ok) throw new Error(`expected ok, got ${result.code}: ${result.message}`);
  return result.period;
}

function failure(result: PeriodResult): { code: PeriodErrorCode; message: string } {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.period)}`);
  return { code: result.code, message: result.message };
}

/** date-fns works in local time: build and format dates in local time on both sides. */
const ymd = (date: Date): string => format(date, 'yyyyMMdd');
const pad2 = (n: number): string => String(n).padStart(2, '0');

/** Switch each ASCII letter to upper or lower case according to the bits of `mask`. */
function mixCase(text: string, mask: number): string {
  return [...text].map((c, i) => ((mask >> i) & 1 ? c.toUpperCase() : c.toLowerCase())).join('');
}

describe('PERIOD_EXAMPLES', () => {
  it('has one valid example of each format, each parsed as that format', () => {
    expect(PERIOD_EXAMPLES).toEqual({
      version: '20251016',
      quarter: '2025Q4',
      week: '2025W42',
      month: '2025M12',
    });
    for (const [fmt, example] of Object.entries(PERIOD_EXAMPLES)) {
      expect(period(parsePeriod(example)).format).toBe(fmt);
    }
  });

  it('cannot be changed at run time', () => {
    expect(Object.isFrozen(PERIOD_EXAMPLES)).toBe(true);
  });
});

describe('parseVersion', () => {
  it.each(['20251016', '20250101', '20251231', '20240229', '20000229', '10000101', '99991231'])(
    'accepts the real date %s as a one-day period',
    (input) => {
      expect(parseVersion(input)).toEqual({
        ok: true,
        period: { format: 'version', start: input, end: input },
      });
    },
  );

  it.each([
    ['29 February of a common year', '20230229'],
    ['29 February of a century year that is not a leap year', '19000229'],
    ['31 February', '20250231'],
    ['31 April', '20250431'],
    ['month 13', '20251301'],
    ['month 00', '20250001'],
    ['day 00', '20250100'],
    ['day 32', '20250132'],
    ['year 0000', '00000101'],
    ['year 0999', '09991231'],
    ['seven digits', '2025101'],
    ['nine digits', '202510161'],
    ['dashes', '2025-10-16'],
    ['a leading space', ' 20251016'],
    ['a trailing space', '20251016 '],
    ['a trailing newline', '20251016\n'],
    ['letters', '2025O1O1'],
    ['a quarter', '2025Q4'],
    ['the empty string', ''],
  ])('refuses %s (%j) with INVALID_VERSION', (_why, input) => {
    const { code, message } = failure(parseVersion(input));
    expect(code).toBe('INVALID_VERSION');
    expect(message).toContain('version must be a real date in YYYYMMDD form');
  });

  it('names the day that does not exist', () => {
    expect(failure(parseVersion('20230229')).message).toBe(
      'version must be a real date in YYYYMMDD form (2023-02-29 does not exist)',
    );
  });
});

describe('parseQuarter', () => {
  it.each([
    ['2025Q1', '20250101', '20250331'],
    ['2025Q2', '20250401', '20250630'],
    ['2025Q3', '20250701', '20250930'],
    ['2025Q4', '20251001', '20251231'],
    ['2025q4', '20251001', '20251231'],
    ['2024Q1', '20240101', '20240331'],
    ['1000Q1', '10000101', '10000331'],
    ['9999Q4', '99991001', '99991231'],
  ])('%s runs from %s to %s', (input, start, end) => {
    expect(parseQuarter(input)).toEqual({ ok: true, period: { format: 'quarter', start, end } });
  });

  it.each(['2025Q0', '2025Q5', '2025Q9'])('refuses %s: quarter must be 1 to 4', (input) => {
    expect(parseQuarter(input)).toEqual({
      ok: false,
      code: 'INVALID_QUARTER',
      message: 'quarter must be 1 to 4',
    });
  });

  it.each([
    '2025Q',
    '2025Q10',
    '2025Q04',
    '2025-Q4',
    '25Q4',
    '0000Q1',
    '0999Q4',
    ' 2025Q4',
    '2025Q4 ',
    '2025W4',
    'Q42025',
    '',
  ])('refuses %j with INVALID_QUARTER', (input) => {
    expect(failure(parseQuarter(input)).code).toBe('INVALID_QUARTER');
  });
});

describe('parseMonth', () => {
  it.each([
    ['2025M12', '20251201', '20251231'],
    ['202512', '20251201', '20251231'],
    ['2025m12', '20251201', '20251231'],
    ['2025M1', '20250101', '20250131'],
    ['2025M01', '20250101', '20250131'],
    ['202501', '20250101', '20250131'],
    ['2024M02', '20240201', '20240229'],
    ['202402', '20240201', '20240229'],
    ['2023M2', '20230201', '20230228'],
    ['1900M02', '19000201', '19000228'],
    ['2000M02', '20000201', '20000229'],
    ['2025M04', '20250401', '20250430'],
    ['9999M12', '99991201', '99991231'],
  ])('%s runs from %s to %s', (input, start, end) => {
    expect(parseMonth(input)).toEqual({ ok: true, period: { format: 'month', start, end } });
  });

  it.each(['2025M13', '2025M0', '2025M00', '202513', '202500', '2025M99', '202599'])(
    'refuses %s: month must be 1 to 12',
    (input) => {
      expect(parseMonth(input)).toEqual({
        ok: false,
        code: 'INVALID_MONTH',
        message: 'month must be 1 to 12',
      });
    },
  );

  it.each([
    '2025M',
    '2025M012',
    '20251',
    '2025123',
    '2025-12',
    '2025 12',
    '000012',
    '0999M12',
    ' 202512',
    '2025M12 ',
    '2025Q4',
    '',
  ])('refuses %j with INVALID_MONTH', (input) => {
    expect(failure(parseMonth(input)).code).toBe('INVALID_MONTH');
  });
});

describe('parseWeek', () => {
  it.each([
    ['2025W42', '20251013', '20251019'],
    ['2025w42', '20251013', '20251019'],
    ['2025W01', '20241230', '20250105'],
    ['2025W1', '20241230', '20250105'],
    ['2025W52', '20251222', '20251228'],
    ['2020W01', '20191230', '20200105'],
    ['2020W53', '20201228', '20210103'],
    ['2026W01', '20251229', '20260104'],
    ['2026W53', '20261228', '20270103'],
    ['2015W53', '20151228', '20160103'],
    ['2021W01', '20210104', '20210110'],
    ['2021W52', '20211227', '20220102'],
    ['2024W09', '20240226', '20240303'],
  ])('%s runs from Monday %s to Sunday %s', (input, start, end) => {
    expect(parseWeek(input)).toEqual({ ok: true, period: { format: 'week', start, end } });
  });

  it('starts week 1 in December when 1 January is a Tuesday to Thursday', () => {
    expect(period(parseWeek('2025W01')).start).toBe('20241230');
    expect(period(parseWeek('2020W01')).start).toBe('20191230');
    expect(period(parseWeek('2019W01')).start).toBe('20181231');
  });

  it('starts week 1 in January when 1 January is a Friday to Sunday', () => {
    expect(period(parseWeek('2021W01')).start).toBe('20210104'); // 1 January 2021 is a Friday
    expect(period(parseWeek('2023W01')).start).toBe('20230102'); // a Sunday
  });

  it.each(['2021', '2022', '2023', '2024', '2025', '2019'])(
    'refuses week 53 of %s, which has 52 ISO weeks',
    (year) => {
      expect(parseWeek(`${year}W53`)).toEqual({
        ok: false,
        code: 'INVALID_WEEK',
        message: `week must be 1 to 53 (${year} has 52 ISO weeks)`,
      });
    },
  );

  it.each(['2025W54', '2025W0', '2025W00', '2025W99', '2020W54'])(
    'refuses %s: week must be 1 to 53',
    (input) => {
      expect(parseWeek(input)).toEqual({
        ok: false,
        code: 'INVALID_WEEK',
        message: 'week must be 1 to 53',
      });
    },
  );

  it.each([
    '2025W',
    '2025W042',
    '2025-W42',
    '25W42',
    '0000W01',
    '0999W01',
    ' 2025W42',
    '2025W42 ',
    '2025M12',
    'W422025',
    '',
  ])('refuses %j with INVALID_WEEK', (input) => {
    expect(failure(parseWeek(input)).code).toBe('INVALID_WEEK');
  });
});

describe('latestIsoWeek', () => {
  it.each([
    [2015, 53],
    [2019, 52],
    [2020, 53],
    [2021, 52],
    [2024, 52],
    [2025, 52],
    [2026, 53],
    [2032, 53],
    [2037, 53],
  ])('%i has %i ISO weeks', (year, weeks) => {
    expect(latestIsoWeek(year)).toBe(weeks);
  });

  it('refuses a year that is not an integer', () => {
    expect(() => latestIsoWeek(2025.5)).toThrow(RangeError);
    expect(() => latestIsoWeek(Number.NaN)).toThrow(RangeError);
  });
});

describe('parsePeriod', () => {
  it.each([
    ['20251016', 'version', '20251016', '20251016'],
    ['20240229', 'version', '20240229', '20240229'],
    ['2025Q4', 'quarter', '20251001', '20251231'],
    ['2025q4', 'quarter', '20251001', '20251231'],
    ['2025M12', 'month', '20251201', '20251231'],
    ['2025m12', 'month', '20251201', '20251231'],
    ['202512', 'month', '20251201', '20251231'],
    ['2023M2', 'month', '20230201', '20230228'],
    ['2025W42', 'week', '20251013', '20251019'],
    ['2025w42', 'week', '20251013', '20251019'],
    ['2025W01', 'week', '20241230', '20250105'],
    ['2020W53', 'week', '20201228', '20210103'],
  ])('reads %s as a %s from %s to %s', (input, fmt, start, end) => {
    expect(parsePeriod(input)).toEqual({ ok: true, period: { format: fmt, start, end } });
  });

  it.each([
    ['20250231', 'INVALID_VERSION'],
    ['20230229', 'INVALID_VERSION'],
    ['20251301', 'INVALID_VERSION'],
    ['00000101', 'INVALID_VERSION'],
    ['2025Q5', 'INVALID_QUARTER'],
    ['2025Q0', 'INVALID_QUARTER'],
    ['2025q9', 'INVALID_QUARTER'],
    ['2025Q10', 'INVALID_QUARTER'],
    ['0000Q1', 'INVALID_QUARTER'],
    ['2025W54', 'INVALID_WEEK'],
    ['2021W53', 'INVALID_WEEK'],
    ['2025W00', 'INVALID_WEEK'],
    ['2025w123', 'INVALID_WEEK'],
    ['202513', 'INVALID_MONTH'],
    ['202500', 'INVALID_MONTH'],
    ['2025M13', 'INVALID_MONTH'],
    ['2025m0', 'INVALID_MONTH'],
    ['2025M012', 'INVALID_MONTH'],
    ['000012', 'INVALID_MONTH'],
  ])('gives %s the code of the format it matches: %s', (input, code) => {
    const result = failure(parsePeriod(input));
    expect(result.code).toBe(code);
    // and exactly what that format's own parser says
    const fmt = (Object.keys(CODE_OF) as PeriodFormat[]).find((f) => CODE_OF[f] === code)!;
    expect(parsePeriod(input)).toEqual(PARSERS[fmt](input));
  });

  it('keeps the specific messages of the per-format parsers', () => {
    expect(failure(parsePeriod('2021W53')).message).toBe(
      'week must be 1 to 53 (2021 has 52 ISO weeks)',
    );
    expect(failure(parsePeriod('2025Q5')).message).toBe('quarter must be 1 to 4');
    expect(failure(parsePeriod('202513')).message).toBe('month must be 1 to 12');
    expect(failure(parsePeriod('20250231')).message).toContain(
      'version must be a real date in YYYYMMDD form',
    );
  });

  it.each([
    '2025',
    '2025-10',
    '2025-10-16',
    'abc',
    '',
    '2025Q',
    '2025W',
    '2025M',
    '20251',
    '2025101',
    '202510161',
    '25Q4',
    '2025X4',
    '2025H1',
    '2025 Q4',
    ' 2025Q4',
    '2025Q4 ',
    ' 20251016',
    '20251016 ',
    '202512 ',
    'Q4 2025',
    '２０２５Q4',
    '2025Q４',
    '2025-W42',
  ])('refuses %j with INVALID_PERIOD_FORMAT', (input) => {
    expect(parsePeriod(input)).toEqual({
      ok: false,
      code: 'INVALID_PERIOD_FORMAT',
      message: 'period matches no format: use YYYYMMDD, YYYYQ#, YYYYW## or YYYYM##/YYYY##',
    });
  });

  it('refuses a value that is not a string without throwing', () => {
    for (const input of [undefined, null, 20251016, {}, []]) {
      expect(failure(parsePeriod(input as unknown as string)).code).toBe('INVALID_PERIOD_FORMAT');
    }
  });
});

describe('isPeriodClosed', () => {
  const week42 = period(parseWeek('2025W42')); // 20251013..20251019

  it('is open while the last day has not passed in UTC', () => {
    expect(isPeriodClosed(week42, new Date('2025-10-13T00:00:00.000Z'))).toBe(false);
    expect(isPeriodClosed(week42, new Date('2025-10-19T00:00:00.000Z'))).toBe(false);
    expect(isPeriodClosed(week42, new Date('2025-10-19T23:59:59.999Z'))).toBe(false);
  });

  it('is closed from the UTC midnight after the last day', () => {
    expect(isPeriodClosed(week42, new Date('2025-10-20T00:00:00.000Z'))).toBe(true);
    expect(isPeriodClosed(week42, new Date('2026-01-01T00:00:00.000Z'))).toBe(true);
  });

  it('uses the UTC date, not the local date of an offset timestamp', () => {
    // 20 October 01:00 in UTC+02:00 is still 19 October in UTC
    expect(isPeriodClosed(week42, new Date('2025-10-20T01:00:00+02:00'))).toBe(false);
    // 19 October 22:00 in UTC-03:00 is already 20 October in UTC
    expect(isPeriodClosed(week42, new Date('2025-10-19T22:00:00-03:00'))).toBe(true);
  });

  it('is open for a period entirely in the future', () => {
    expect(isPeriodClosed(period(parseQuarter('2030Q1')), new Date('2025-10-20T00:00:00Z'))).toBe(
      false,
    );
  });

  it('treats a version as a one-day period', () => {
    const version = period(parseVersion('20251016'));
    expect(isPeriodClosed(version, new Date('2025-10-16T23:59:59.999Z'))).toBe(false);
    expect(isPeriodClosed(version, new Date('2025-10-17T00:00:00.000Z'))).toBe(true);
  });

  it('closes a week that spans the new year only after its Sunday', () => {
    const week1 = period(parseWeek('2025W01')); // 20241230..20250105
    expect(isPeriodClosed(week1, new Date('2025-01-01T12:00:00Z'))).toBe(false);
    expect(isPeriodClosed(week1, new Date('2025-01-05T23:59:59Z'))).toBe(false);
    expect(isPeriodClosed(week1, new Date('2025-01-06T00:00:00Z'))).toBe(true);
  });

  it('refuses an invalid clock', () => {
    expect(() => isPeriodClosed(week42, new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe('properties, with date-fns as the oracle', () => {
  const year = fc.integer({ min: 1900, max: 2100 });
  const wideYear = fc.integer({ min: 1000, max: 9999 });
  const caseMask = fc.integer({ min: 0, max: 255 });

  it('parseWeek agrees with date-fns on validity and range', () => {
    fc.assert(
      fc.property(year, fc.integer({ min: 1, max: 53 }), caseMask, (y, w, mask) => {
        const january4 = new Date(y, 0, 4); // always in ISO week 1 of ISO year y
        const valid = w <= getISOWeeksInYear(january4);
        const result = parseWeek(mixCase(`${y}W${pad2(w)}`, mask));
        expect(result.ok).toBe(valid);
        expect(latestIsoWeek(y)).toBe(getISOWeeksInYear(january4));
        if (!valid) {
          expect(failure(result).code).toBe('INVALID_WEEK');
          return;
        }
        const inWeek = setISOWeek(january4, w);
        expect(getISOWeekYear(inWeek)).toBe(y);
        expect(getISOWeek(inWeek)).toBe(w);
        expect(period(result)).toEqual({
          format: 'week',
          start: ymd(startOfISOWeek(inWeek)),
          end: ymd(endOfISOWeek(inWeek)),
        });
        // the one-digit spelling means the same week
        if (w < 10) expect(parseWeek(`${y}W${w}`)).toEqual(result);
      }),
      { numRuns: 2000 },
    );
  });

  it('latestIsoWeek agrees with date-fns on every year from 1000 to 9999', () => {
    for (let y = 1000; y <= 9999; y++) {
      expect(latestIsoWeek(y)).toBe(getISOWeeksInYear(new Date(y, 0, 4)));
    }
  });

  it('parseQuarter agrees with date-fns', () => {
    fc.assert(
      fc.property(wideYear, fc.integer({ min: 0, max: 9 }), fc.boolean(), (y, q, lower) => {
        const result = parseQuarter(`${y}${lower ? 'q' : 'Q'}${q}`);
        if (q < 1 || q > 4) {
          expect(failure(result).code).toBe('INVALID_QUARTER');
          return;
        }
        const inQuarter = new Date(y, (q - 1) * 3 + 1, 15);
        expect(period(result)).toEqual({
          format: 'quarter',
          start: ymd(startOfQuarter(inQuarter)),
          end: ymd(endOfQuarter(inQuarter)),
        });
      }),
      { numRuns: 1000 },
    );
  });

  it('parseMonth agrees with date-fns in both spellings', () => {
    fc.assert(
      fc.property(
        wideYear,
        fc.integer({ min: 0, max: 99 }),
        fc.constantFrom('M##', 'm##', 'M#', '##'),
        (y, m, spelling) => {
          const input =
            spelling === '##'
              ? `${y}${pad2(m)}`
              : spelling === 'M#'
                ? `${y}M${m}`
                : `${y}${spelling[0]}${pad2(m)}`;
          const result = parseMonth(input);
          if (m < 1 || m > 12) {
            expect(failure(result).code).toBe('INVALID_MONTH');
            return;
          }
          const first = new Date(y, m - 1, 1);
          expect(period(result)).toEqual({
            format: 'month',
            start: ymd(first),
            end: ymd(endOfMonth(first)),
          });
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('parseVersion agrees with date-fns on which 8-digit strings are real dates', () => {
    const anyEightDigits = fc.stringMatching(/^\d{8}$/);
    const nearlyValid = fc
      .tuple(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
      )
      .map(([y, m, d]) => String(y).padStart(4, '0') + pad2(m) + pad2(d));
    const reference = new Date(2000, 0, 1);
    fc.assert(
      fc.property(fc.oneof(anyEightDigits, nearlyValid), (input) => {
        const parsed = parse(input, 'yyyyMMdd', reference);
        const valid = isValid(parsed) && parsed.getFullYear() >= 1000;
        const result = parseVersion(input);
        expect(result.ok).toBe(valid);
        if (valid) {
          expect(ymd(parsed)).toBe(input);
          expect(period(result)).toEqual({ format: 'version', start: input, end: input });
        } else {
          expect(failure(result).code).toBe('INVALID_VERSION');
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('parsePeriod reads a formatted valid value as its format, with the same range', () => {
    const version = fc
      .date({ min: new Date(1000, 0, 1), max: new Date(9999, 11, 31), noInvalidDate: true })
      .map((d) => ({ fmt: 'version' as const, input: ymd(d) }));
    const quarter = fc
      .tuple(wideYear, fc.integer({ min: 1, max: 4 }), fc.constantFrom('Q', 'q'))
      .map(([y, q, letter]) => ({ fmt: 'quarter' as const, input: `${y}${letter}${q}` }));
    const month = fc
      .tuple(wideYear, fc.integer({ min: 1, max: 12 }), fc.constantFrom('M', 'm', ''), fc.boolean())
      .map(([y, m, letter, short]) => ({
        fmt: 'month' as const,
        input: `${y}${letter}${letter && short ? m : pad2(m)}`,
      }));
    const week = fc
      .tuple(wideYear, fc.integer({ min: 1, max: 53 }), fc.constantFrom('W', 'w'), fc.boolean())
      .filter(([y, w]) => w <= getISOWeeksInYear(new Date(y, 0, 4)))
      .map(([y, w, letter, short]) => ({
        fmt: 'week' as const,
        input: `${y}${letter}${short ? w : pad2(w)}`,
      }));
    fc.assert(
      fc.property(fc.oneof(version, quarter, month, week), ({ fmt, input }) => {
        const own = PARSERS[fmt](input);
        expect(own.ok).toBe(true);
        const unified = parsePeriod(input);
        expect(period(unified).format).toBe(fmt);
        expect(unified).toEqual(own);
      }),
      { numRuns: 2000 },
    );
  });

  it('parsePeriod never throws and returns a period or one of the codes, for any string', () => {
    const periodish = fc.stringMatching(/^[0-9QWMqwmx -]{0,10}$/);
    const shaped = fc.stringMatching(/^\d{4}[QWMqwm]\d{1,3}$|^\d{5,9}$/);
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), periodish, shaped), (s) => {
        let result: PeriodResult | undefined;
        expect(() => {
          result = parsePeriod(s);
        }).not.toThrow();
        if (!result) throw new Error('no result');
        if (result.ok) {
          const { format: fmt, start, end } = result.period;
          expect(PARSERS[fmt](s)).toEqual(result);
          expect(start).toMatch(/^\d{8}$/);
          expect(end).toMatch(/^\d{8}$/);
          expect(start <= end).toBe(true);
        } else {
          expect(CODES).toContain(result.code);
          expect(result.message.length).toBeGreaterThan(0);
          const code = result.code;
          if (code !== 'INVALID_PERIOD_FORMAT') {
            // a format was recognised: its own parser says the same
            const fmt = (Object.keys(CODE_OF) as PeriodFormat[]).find((f) => CODE_OF[f] === code)!;
            expect(PARSERS[fmt](s)).toEqual(result);
          }
        }
      }),
      { numRuns: 5000 },
    );
  });

  it('the per-format parsers never throw either', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        for (const [fmt, parser] of Object.entries(PARSERS) as [
          PeriodFormat,
          (input: string) => PeriodResult,
        ][]) {
          const result = parser(s);
          if (!result.ok) expect(result.code).toBe(CODE_OF[fmt]);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
