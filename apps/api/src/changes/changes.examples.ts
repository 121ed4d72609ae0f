import { PRICING_CHANGE_TYPES, SIGNIFICANCES } from '#app/domain';
import type { ErrorExamples } from '../openapi/decorators.js';

/** The error examples of each ChangesController route, by method name. */
export const CHANGES_ERROR_EXAMPLES = {
  list: {
    400: {
      cursor: {
        summary: 'A since that is not a cursor of this feed',
        message: 'since is not a cursor of this feed: pass a next_cursor as it was given',
        details: { parameter: 'since', provided: 'abc' },
      },
      eventType: {
        summary: 'An unknown event_type',
        message: 'Unknown event_type: price_up',
        details: {
          parameter: 'event_type',
          provided: 'price_up',
          valid_values: [...PRICING_CHANGE_TYPES],
        },
      },
      significance: {
        summary: 'An unknown min_significance',
        message: 'min_significance must be one of minor, moderate, major',
        details: {
          parameter: 'min_significance',
          provided: 'high',
          valid_values: [...SIGNIFICANCES],
        },
      },
    },
  },
} satisfies Record<string, ErrorExamples>;
