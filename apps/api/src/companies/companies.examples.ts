import { CATEGORIES } from '#app/domain';
import type { ErrorExamples } from '../openapi/decorators.js';

/** The error examples of each CompaniesController route, by method name. */
export const COMPANIES_ERROR_EXAMPLES = {
  list: {
    400: {
      limit: {
        summary: 'limit out of range',
        value: {
          error: 'Bad Request',
          message: 'limit must be an integer from 1 to 100',
          details: {
            parameter: 'limit',
            provided: '500',
            expected: 'an integer from 1 to 100',
            max: 100,
          },
        },
      },
      category: {
        summary: 'Unknown category',
        value: {
          error: 'Bad Request',
          message: 'Unknown category: Gardening',
          details: { parameter: 'category', provided: 'Gardening', valid_values: [...CATEGORIES] },
        },
      },
    },
  },
  one: {
    400: {
      include: {
        summary: 'include other than pages',
        value: {
          error: 'Bad Request',
          message: 'include accepts only "pages"',
          details: { parameter: 'include', provided: 'plans', expected: 'pages' },
        },
      },
    },
    404: {
      unknown: {
        summary: 'Unknown slug',
        value: {
          error: 'Not Found',
          message: 'No company with slug notoin.so',
          details: { slug: 'notoin.so', suggestion: 'notion.so' },
        },
      },
    },
  },
} satisfies Record<string, ErrorExamples>;
