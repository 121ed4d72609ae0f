import type { ErrorExamples } from '../openapi/decorators.js';
import {
  AS_OF_EXAMPLE,
  INVALID_CURRENCY_EXAMPLE,
  PAGE_REQUIRED_EXAMPLE,
} from '../openapi/shared.examples.js';

/** The error examples of CompareController's route. */
export const COMPARE_ERROR_EXAMPLES = {
  compare: {
    400: {
      count: {
        summary: 'Fewer than 2 or more than 10 slugs',
        message: 'slugs must name from 2 to 10 pages, comma-separated',
        code: 'INVALID_PARAMETER',
        details: {
          parameter: 'slugs',
          provided: 'acmechat',
          expected: 'from 2 to 10 slugs, comma-separated',
        },
      },
      repeated: {
        summary: 'A page named twice',
        message:
          'slugs names the page acmechat twice (acmechat and acmechat.io): compare different pages',
        code: 'INVALID_PARAMETER',
        details: {
          parameter: 'slugs',
          provided: 'acmechat.io',
          page: 'acmechat',
          expected: 'each page once',
        },
      },
      pageRequired: PAGE_REQUIRED_EXAMPLE,
      asOf: AS_OF_EXAMPLE,
      currency: INVALID_CURRENCY_EXAMPLE,
    },
    404: {
      notFound: {
        summary: 'A slug that names no page',
        message: 'No pricing page with slug hubly',
        code: 'NOT_FOUND',
        details: { slug: 'hubly', message: 'No pricing page with slug hubly' },
      },
    },
  },
} satisfies Record<string, ErrorExamples>;
