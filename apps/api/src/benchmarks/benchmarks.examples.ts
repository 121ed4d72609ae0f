import type { ErrorExamples } from '../openapi/decorators.js';
import { AS_OF_EXAMPLE, INVALID_CURRENCY_EXAMPLE } from '../pricing/pricing.examples.js';

/** The error examples of BenchmarksController's route. */
export const BENCHMARKS_ERROR_EXAMPLES = {
  benchmark: {
    400: {
      category: {
        summary: 'Unknown category',
        value: {
          error: 'Unknown category: chat',
          code: 'INVALID_PARAMETER',
          details: {
            parameter: 'category',
            provided: 'chat',
            valid_values: ['Communication', 'Productivity'],
          },
        },
      },
      asOf: AS_OF_EXAMPLE,
      currency: INVALID_CURRENCY_EXAMPLE,
    },
    404: {
      company: {
        summary: 'Unknown company',
        value: {
          error: 'No company with slug acmechat.oi',
          code: 'NOT_FOUND',
          details: { slug: 'acmechat.oi', suggestion: 'acmechat.io' },
        },
      },
    },
  },
} satisfies Record<string, ErrorExamples>;
