import type { ErrorExamples } from '../openapi/decorators.js';
import { MAX_WEBHOOKS_PER_KEY } from './webhooks.dto.js';

/** The error examples of each WebhooksController route, by method name. */
export const WEBHOOKS_ERROR_EXAMPLES = {
  register: {
    400: {
      url: {
        summary: 'A URL that cannot receive webhooks',
        message: "url's host intranet.example.com must resolve only to public addresses",
        details: { parameter: 'url', provided: 'https://intranet.example.com/hook' },
      },
      limit: {
        summary: 'Too many webhooks',
        message: `A key holds at most ${MAX_WEBHOOKS_PER_KEY} webhooks: delete one first`,
        details: { limit: MAX_WEBHOOKS_PER_KEY },
      },
    },
  },
  delete: {
    404: {
      unknown: {
        summary: 'No webhook of that id for this key',
        message: 'No webhook 6f1c2b9e-0d4a-4a7b-9c1e-2f3d4e5a6b7c',
        details: { id: '6f1c2b9e-0d4a-4a7b-9c1e-2f3d4e5a6b7c' },
      },
    },
  },
} satisfies Record<string, ErrorExamples>;
