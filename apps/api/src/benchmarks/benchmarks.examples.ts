import type { ErrorExamples } from '../openapi/decorators.js';
import {
  AS_OF_EXAMPLE,
  INVALID_CURRENCY_EXAMPLE,
  INVALID_RANGE_EXAMPLE,
} from '../openapi/shared.examples.js';

const CATEGORY_EXAMPLE = {
  summary: 'Unknown category',
  message: 'Unknown category: chat',
  code: 'INVALID_PARAMETER',
  details: {
    parameter: 'category',
    provided: 'chat',
    valid_values: ['Communication', 'Productivity'],
  },
};

/** The error examples of BenchmarksController's routes, by method name. */
export const BENCHMARKS_ERROR_EXAMPLES = {
  benchmark: {
    400: {
      category: CATEGORY_EXAMPLE,
      asOf: AS_OF_EXAMPLE,
      currency: INVALID_CURRENCY_EXAMPLE,
    },
    404: {
      company: {
        summary: 'Unknown company',
        message: 'No company with slug acmechat.oi',
        code: 'NOT_FOUND',
        details: { slug: 'acmechat.oi', suggestion: 'acmechat.io' },
      },
    },
  },
  series: {
    400: {
      missingFrom: {
        summary: 'No from',
        message: 'from is required: a date YYYYMMDD',
        code: 'INVALID_PARAMETER',
        details: { parameter: 'from', provided: null, expected: 'a date YYYYMMDD' },
      },
      date: {
        summary: 'from not a calendar date',
        message: 'from must be a real date in YYYYMMDD form',
        code: 'INVALID_DATE',
        details: { parameter: 'from', provided: '20250230' },
      },
      step: {
        summary: 'Unknown step',
        message: 'step must be one of month, quarter',
        code: 'INVALID_PARAMETER',
        details: { parameter: 'step', provided: 'week', valid_values: ['month', 'quarter'] },
      },
      range: INVALID_RANGE_EXAMPLE,
      tooLarge: {
        summary: 'More than 120 points',
        message:
          'From 20100101 to 20251231 by month is more than 120 points: take a longer step or a shorter range',
        code: 'RANGE_TOO_LARGE',
        details: {
          provided: { from: '20100101', to: '20251231', step: 'month' },
          max_points: 120,
        },
      },
      category: CATEGORY_EXAMPLE,
      currency: INVALID_CURRENCY_EXAMPLE,
    },
  },
} satisfies Record<string, ErrorExamples>;
