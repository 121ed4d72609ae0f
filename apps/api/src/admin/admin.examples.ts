import type { ErrorExamples } from '../openapi/decorators.js';

/** The documented 401 of every admin operation. */
const ADMIN_TOKEN_REFUSED = {
  token: {
    summary: 'No or wrong admin token',
    message: 'A valid admin token is required',
    details: { hint: 'Send "Authorization: Bearer <ADMIN_TOKEN>"' },
  },
};

const UNKNOWN_KEY = {
  unknown: {
    summary: 'Unknown key',
    message: 'No API key 2d9c0b5e-1f4a-4e63-9b8d-7a6c5e4f3d2b',
    details: { id: '2d9c0b5e-1f4a-4e63-9b8d-7a6c5e4f3d2b' },
  },
};

/** The error examples of each AdminKeysController route, by method name. */
export const ADMIN_KEYS_ERROR_EXAMPLES = {
  create: {
    400: {
      plan: {
        summary: 'Unknown plan',
        message: 'plan must be one of: free, pro, enterprise',
        details: {
          parameter: 'plan',
          provided: 'platinum',
          valid_values: ['free', 'pro', 'enterprise'],
        },
      },
      body: {
        summary: 'Invalid body',
        message: 'The request body is invalid',
        details: { errors: [{ field: 'role', reasons: ['property role should not exist'] }] },
      },
    },
    401: ADMIN_TOKEN_REFUSED,
  },
  list: {
    401: ADMIN_TOKEN_REFUSED,
  },
  revoke: {
    401: ADMIN_TOKEN_REFUSED,
    404: UNKNOWN_KEY,
  },
  usage: {
    401: ADMIN_TOKEN_REFUSED,
    404: UNKNOWN_KEY,
  },
} satisfies Record<string, ErrorExamples>;
