import type { ErrorExamples } from '../openapi/decorators.js';
import {
  AS_OF_EXAMPLE,
  INVALID_CURRENCY_EXAMPLE,
  INVALID_RANGE_EXAMPLE,
  PAGE_REQUIRED_EXAMPLE,
} from '../openapi/shared.examples.js';

const UNKNOWN_SLUG_EXAMPLE = {
  summary: 'Unknown slug',
  message: 'No pricing page with slug notoin',
  code: 'NOT_FOUND',
  details: { slug: 'notoin', message: 'No pricing page with slug notoin' },
};

const VERSION_NOT_FOUND_EXAMPLE = {
  summary: 'No extraction of that version',
  message: 'No pricing extraction of notion for version 20250101',
  code: 'VERSION_NOT_FOUND',
  details: {
    slug: 'notion',
    requested_version: '20250101',
    message: 'No pricing extraction of notion for version 20250101',
    available_versions: ['20250901', '20251016'],
    latest_version: '20251016',
    suggestion: 'Use one of available_versions, e.g. GET /v1/api/pricing/notion?version=20251016',
  },
};

const INVALID_VERSION_EXAMPLE = {
  summary: 'Malformed version',
  message: 'version must be a real date in YYYYMMDD form',
  code: 'INVALID_VERSION',
  details: { provided: '2025-10-16' },
};

/** The error examples of each PricingController route, by method name. */
export const PRICING_ERROR_EXAMPLES = {
  one: {
    400: {
      conflicting: {
        summary: 'version and period together',
        message: 'Give version or period, not both',
        code: 'CONFLICTING_PARAMETERS',
        details: { provided: { version: '20251016', period: '2025Q4' } },
      },
      version: INVALID_VERSION_EXAMPLE,
      asOf: AS_OF_EXAMPLE,
      currency: INVALID_CURRENCY_EXAMPLE,
    },
    404: {
      notFound: UNKNOWN_SLUG_EXAMPLE,
      versionNotFound: VERSION_NOT_FOUND_EXAMPLE,
      periodNotFound: {
        summary: 'No extraction in the period',
        message: 'No pricing extraction of notion in 2024Q1',
        code: 'PERIOD_NOT_FOUND',
        details: {
          slug: 'notion',
          requested_period: '2024Q1',
          message: 'No pricing extraction of notion between 20240101 and 20240331',
          latest_version: '20251016',
          suggestion:
            'The latest extraction is 20251016: GET /v1/api/pricing/notion?version=20251016',
        },
      },
    },
  },
  versions: {
    400: { pageRequired: PAGE_REQUIRED_EXAMPLE },
    404: { notFound: UNKNOWN_SLUG_EXAMPLE },
  },
  diff: {
    400: {
      missing: {
        summary: 'No from',
        message: 'from is required: a version YYYYMMDD',
        code: 'INVALID_PARAMETER',
        details: { parameter: 'from', provided: null, expected: 'a version YYYYMMDD' },
      },
      version: INVALID_VERSION_EXAMPLE,
      pageRequired: PAGE_REQUIRED_EXAMPLE,
    },
    404: { notFound: UNKNOWN_SLUG_EXAMPLE, versionNotFound: VERSION_NOT_FOUND_EXAMPLE },
  },
  series: {
    400: {
      range: INVALID_RANGE_EXAMPLE,
      tooLarge: {
        summary: 'More than 520 points',
        message:
          'From 20000101 to 20251231 by week is more than 520 points: take a longer step or a shorter range',
        code: 'RANGE_TOO_LARGE',
        details: {
          provided: { from: '20000101', to: '20251231', step: 'week' },
          max_points: 520,
        },
      },
      step: {
        summary: 'Unknown step',
        message: 'step must be one of week, month, quarter',
        code: 'INVALID_PARAMETER',
        details: {
          parameter: 'step',
          provided: 'day',
          valid_values: ['week', 'month', 'quarter'],
        },
      },
      date: {
        summary: 'from not a calendar date',
        message: 'from must be a real date in YYYYMMDD form',
        code: 'INVALID_DATE',
        details: { parameter: 'from', provided: '20250230' },
      },
      currency: INVALID_CURRENCY_EXAMPLE,
      pageRequired: PAGE_REQUIRED_EXAMPLE,
    },
    404: { notFound: UNKNOWN_SLUG_EXAMPLE },
  },
} satisfies Record<string, ErrorExamples>;
