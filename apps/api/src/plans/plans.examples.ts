import type { ErrorExamples } from '../openapi/decorators.js';
import { UNKNOWN_CATEGORY_EXAMPLE } from '../openapi/shared.examples.js';

/** The error examples of each PlansController route, by method name. */
export const PLANS_ERROR_EXAMPLES = {
  search: {
    400: {
      category: UNKNOWN_CATEGORY_EXAMPLE,
      number: {
        summary: 'min_monthly not a number',
        message: 'min_monthly must be a decimal number >= 0',
        code: 'INVALID_PARAMETER',
        details: {
          parameter: 'min_monthly',
          provided: 'ten',
          expected: 'a decimal number >= 0, such as 9.99',
        },
      },
      currency: {
        summary: 'currency not a currency code',
        message: 'currency must be a three-letter ISO 4217 code, such as EUR',
        code: 'INVALID_CURRENCY',
        details: { parameter: 'currency', provided: 'euro' },
      },
      sort: {
        summary: 'sort on another field',
        message: 'Invalid sort: price',
        code: 'INVALID_PARAMETER',
        details: {
          parameter: 'sort',
          provided: 'price',
          expected: 'field, -field, field:asc or field:desc with field one of company, monthly',
        },
      },
    },
  },
} satisfies Record<string, ErrorExamples>;
