import type { ErrorExamples } from '../openapi/decorators.js';

/** The error examples of each PagesController route, by method name. */
export const PAGES_ERROR_EXAMPLES = {
  one: {
    400: {
      pageRequired: {
        summary: 'Several pages, none primary',
        message: 'acme.io has several pricing pages and no primary one: name one',
        details: { pages: ['acme.enterprise', 'acme.teams'] },
      },
    },
    404: {
      unknown: {
        summary: 'Unknown slug',
        message: 'No pricing page with slug notoin',
        details: { slug: 'notoin', suggestion: 'notion.so' },
      },
    },
  },
} satisfies Record<string, ErrorExamples>;
