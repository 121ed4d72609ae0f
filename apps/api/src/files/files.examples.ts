import type { ErrorExamples } from '../openapi/decorators.js';

const UNKNOWN_SLUG_EXAMPLE = {
  summary: 'Unknown company or page slug',
  message: 'No company or page with slug notoin',
  code: 'NOT_FOUND',
  details: { slug: 'notoin', message: 'No company or page with slug notoin' },
};

/** 400 and 404 examples of one files route; `code` is the route's own time-format error. */
function filesErrorExamples(code: string, provided: string, message: string): ErrorExamples {
  return {
    400: {
      [code]: {
        summary: `Malformed or impossible ${code.replace('INVALID_', '').toLowerCase()}`,
        message,
        code,
        details: { provided },
      },
    },
    404: { notFound: UNKNOWN_SLUG_EXAMPLE },
  };
}

/** The error examples of each FilesController route, by method name. */
export const FILES_ERROR_EXAMPLES = {
  versions: {
    404: { notFound: UNKNOWN_SLUG_EXAMPLE },
  },
  byVersion: filesErrorExamples(
    'INVALID_VERSION',
    '20250231',
    'version must be a real date in YYYYMMDD form (2025-02-31 does not exist)',
  ),
  byQuarter: filesErrorExamples('INVALID_QUARTER', '2025Q5', 'quarter must be 1 to 4'),
  byMonth: filesErrorExamples('INVALID_MONTH', '202513', 'month must be 1 to 12'),
  byWeek: filesErrorExamples(
    'INVALID_WEEK',
    '2021W53',
    'week must be 1 to 53 (2021 has 52 ISO weeks)',
  ),
  byPeriod: {
    400: {
      format: {
        summary: 'No format matches',
        message: 'period matches no format: use YYYYMMDD, YYYYQ#, YYYYW## or YYYYM##/YYYY##',
        code: 'INVALID_PERIOD_FORMAT',
        details: {
          provided: 'last-week',
          examples: {
            version: '20251016',
            quarter: '2025Q4',
            week: '2025W42',
            month: '2025M12',
          },
        },
      },
      week: {
        summary: 'A week the year does not have',
        message: 'week must be 1 to 53',
        code: 'INVALID_WEEK',
        details: { provided: '2025W54' },
      },
    },
    404: { notFound: UNKNOWN_SLUG_EXAMPLE },
  },
} satisfies Record<string, ErrorExamples>;
