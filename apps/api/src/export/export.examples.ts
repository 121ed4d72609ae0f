import { EXPORT_CSV_COLUMNS } from '#app/domain';
import type { ErrorExamples } from '../openapi/decorators.js';
import { INVALID_CURRENCY_EXAMPLE } from '../openapi/shared.examples.js';

/** The error examples of each ExportController route, by method name. */
export const EXPORT_ERROR_EXAMPLES = {
  pricing: {
    400: {
      cursor: {
        summary: 'A since that is not a cursor of the change feed',
        message:
          'since is not a cursor of the change feed: pass an X-Next-Cursor or next_cursor as it was given',
        code: 'INVALID_CURSOR',
        details: { parameter: 'since', provided: 'abc' },
      },
      limit: {
        summary: 'A limit out of range',
        message: 'limit must be an integer from 1 to 10000',
        code: 'INVALID_PARAMETER',
        details: {
          parameter: 'limit',
          provided: '20000',
          expected: 'an integer from 1 to 10000',
          max: 10000,
        },
      },
      currency: INVALID_CURRENCY_EXAMPLE,
      format: {
        summary: 'An unknown format',
        message: 'format must be one of ndjson, csv',
        code: 'INVALID_PARAMETER',
        details: { parameter: 'format', provided: 'xml', valid_values: ['ndjson', 'csv'] },
      },
    },
    403: {
      plan: {
        summary: 'The plan lacks the export feature',
        message: 'Your plan does not include export',
        code: 'PLAN_REQUIRED',
        details: {
          required_plan: 'enterprise',
          current_plan: 'pro',
          upgrade_url: 'https://example.com/pricing',
        },
      },
    },
  },
} satisfies Record<string, ErrorExamples>;

const CSV_HEADER = `${EXPORT_CSV_COLUMNS.join(',')}\r\n`;

/** A pricing document of the demo catalogue as one NDJSON line (shortened to one plan). */
const DOCUMENT = {
  slug: 'acmechat',
  company_slug: 'acmechat.io',
  page_subslug: '',
  page_id: '5b0f7a52-3b3c-5d54-9a43-3f7c2f1f6a10',
  version: '20250104',
  scrape: {
    id: '0d9a4d4e-0f55-5b8f-8e0b-7f3c4a9c2e11',
    version: '20250104',
    page_url: 'https://acmechat.io/pricing',
    created_at: '2025-01-04T06:00:00.000Z',
  },
  plans: [
    {
      id: '8c3e2f0a-1d4b-5e6f-9a7b-2c1d0e9f8a7b',
      display_name: 'Pro',
      internal_name: 'pro',
      add_on: false,
      charges: [
        {
          id: '1a2b3c4d-5e6f-5a7b-8c9d-0e1f2a3b4c5d',
          billing: 'annual_recurring_billed_yearly',
          currency: 'USD',
          price: 96,
          charge_type: 'recurring',
          pricing_metric: {
            id: '6e7f8a9b-0c1d-5e2f-9a3b-4c5d6e7f8a9b',
            display_name: 'per seat',
            modality: 'user_based',
          },
          usage_type: 'licensed',
          display_name: 'Pro, billed yearly',
          price_display: '$96/seat/year',
          included_quantity: null,
          overage_info: null,
          monthly_equivalent: 8,
        },
      ],
      discounts: [],
    },
  ],
};

/** Examples of the export's two bodies. */
export const EXPORT_BODY_EXAMPLES = {
  ndjson: {
    extractions: {
      summary: 'One line per extraction',
      value: `${JSON.stringify(DOCUMENT)}\n`,
    },
    end: { summary: 'Past the end: nothing', value: '' },
  },
  csv: {
    charges: {
      summary: 'A header, then one line per charge',
      value:
        CSV_HEADER +
        'acmechat,acmechat.io,,20250104,pro,Pro,false,"Pro, billed yearly",' +
        'annual_recurring_billed_yearly,recurring,licensed,USD,96,8,user_based\r\n',
    },
    end: { summary: 'Past the end: the header alone', value: CSV_HEADER },
  },
};
