import type { ErrorExamples } from '../openapi/decorators.js';
import { UNKNOWN_CATEGORY_EXAMPLE } from '../openapi/shared.examples.js';

/** The error examples of each CompaniesController route, by method name. */
export const COMPANIES_ERROR_EXAMPLES = {
  list: {
    400: {
      limit: {
        summary: 'limit out of range',
        message: 'limit must be an integer from 1 to 100',
        details: {
          parameter: 'limit',
          provided: '500',
          expected: 'an integer from 1 to 100',
          max: 100,
        },
      },
      category: UNKNOWN_CATEGORY_EXAMPLE,
    },
  },
  one: {
    400: {
      include: {
        summary: 'include other than pages',
        message: 'include accepts only "pages"',
        details: { parameter: 'include', provided: 'plans', expected: 'pages' },
      },
    },
    404: {
      unknown: {
        summary: 'Unknown slug',
        message: 'No company with slug notoin.so',
        details: { slug: 'notoin.so', suggestion: 'notion.so' },
      },
    },
  },
} satisfies Record<string, ErrorExamples>;
