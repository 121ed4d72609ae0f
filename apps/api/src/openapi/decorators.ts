import { applyDecorators, type Type } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiHeader,
  ApiResponse,
  ApiSecurity,
  type ApiResponseCommonMetadata,
  type ApiResponseExamples,
} from '@nestjs/swagger';
import {
  CodedErrorDto,
  CodedRateLimitedErrorDto,
  CodedServerErrorDto,
  CodedServiceUnavailableErrorDto,
  GeneralErrorDto,
  GeneralServerErrorDto,
  RateLimitedErrorDto,
  ServiceUnavailableErrorDto,
} from './errors.dto.js';
import { DeclareErrorShape, type ErrorShape } from '../errors/error-shape.js';
import { errorBody, errorStatus } from '../errors/error-body.js';

/**
 * Composite decorators that keep the controllers' OpenAPI metadata short and uniform: who may
 * call (security), what it costs (x-credit-cost), and which error bodies a route can answer.
 */

/** Names of the security schemes declared in document.ts. */
export const SECURITY_SCHEMES = {
  /** An API key as `Authorization: Bearer <key>` (recommended). */
  bearer: 'bearer',
  /** An API key as `X-API-Key: <key>`. */
  apiKey: 'apiKey',
  /** The operator's ADMIN_TOKEN as `Authorization: Bearer <token>`. */
  adminToken: 'adminToken',
} as const;

/** Either way of presenting an API key: two alternative security requirements. */
export function ApiKeyAuth(): ClassDecorator & MethodDecorator {
  return applyDecorators(
    ApiBearerAuth(SECURITY_SCHEMES.bearer),
    ApiSecurity(SECURITY_SCHEMES.apiKey),
  ) as ClassDecorator & MethodDecorator;
}

export function AdminAuth(): ClassDecorator & MethodDecorator {
  return ApiBearerAuth(SECURITY_SCHEMES.adminToken);
}

/** The statuses a route documents errors for. */
type ErrorStatus = 400 | 401 | 403 | 404 | 408 | 413 | 414 | 415 | 429 | 431 | 500 | 503;

/**
 * An error a route can give, as its example: ApiErrorResponses writes it in the route's error
 * shape as the filter would (errorBody), so one example serves either shape. `code` is the
 * coded shape's (the status's own code when absent); the general shape has none.
 */
export interface ErrorExample {
  summary: string;
  message: string;
  code?: string;
  details?: Record<string, unknown>;
}

/** A route's error examples by status, each by name. */
export type ErrorExamples = Partial<Record<ErrorStatus, Record<string, ErrorExample>>>;

/** What each error status means, as every operation documents it. */
export const ERROR_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: 'Invalid or malformed parameters',
  401: 'Missing, malformed, unknown, revoked or expired credentials',
  403: 'Valid credentials that may not use this route (plan or scope)',
  404: 'Not found',
  408: 'The request did not fully arrive within 60 seconds',
  413: 'The request body is too large',
  414: 'The URL is longer than 4 KB',
  415: 'The request body has a content type the route does not take',
  431: 'The request line and headers together are larger than 16 KB',
  429:
    'A limit was reached: monthly credits, the hourly window, the burst limit, or failed ' +
    'authentications from this address. Retry after Retry-After',
  500: 'Unexpected server error; the body carries request_id and timestamp, never internals',
  503:
    'A backing service (Redis or the database) is unreachable; nothing was done. Retry after ' +
    'Retry-After',
};

/** The request id and time the examples of a 500 show. */
const EXAMPLE_REQUEST_ID = 'b3f1c9e2-6a4d-4c1b-9e8f-2d7a5c3b1e0f';
const EXAMPLE_TIME = '2025-10-16T08:30:00.000Z';

function exampleOf(
  example: ErrorExample,
  status: ErrorStatus,
  shape: ErrorShape,
): ApiResponseExamples {
  const { summary, code = errorStatus(status).code, message, details } = example;
  const body = errorBody({ status, code, message, details }, shape, EXAMPLE_REQUEST_ID);
  if ('timestamp' in body) body.timestamp = EXAMPLE_TIME;
  return { summary, value: body };
}

const MISSING_KEY: ErrorExample = {
  summary: 'No key',
  message: 'An API key is required',
  details: { hint: 'Send the key as "Authorization: Bearer <key>" or "X-API-Key: <key>"' },
};

const PLAN_REQUIRED: ErrorExample = {
  summary: 'The plan lacks the feature',
  message: 'Your plan does not include pricing',
  code: 'PLAN_REQUIRED',
  details: {
    required_plan: 'pro',
    current_plan: 'free',
    upgrade_url: 'https://example.com/pricing',
  },
};

const CREDITS_SPENT = 'No credits left this month: they reset at 2026-12-01T00:00:00.000Z';
const CREDITS_LIMITS = {
  limit: 1000,
  remaining: 0,
  reset_at: '2026-12-01T00:00:00.000Z',
  retry_after: 739200,
};

const UNAVAILABLE: ErrorExample = {
  summary: 'Redis or the database unreachable',
  message: 'A backing service is unavailable; nothing was done. Retry shortly',
  details: { retry_after: 5 },
};

/** The examples of a status a route gives none of its own for. */
const DEFAULT_EXAMPLES: Record<ErrorShape, ErrorExamples> = {
  general: {
    400: {
      badUrl: {
        summary: 'A path that is not valid percent-encoded UTF-8',
        message: "'/v1/admin/keys/%E0%A4%A' is not a valid url component",
      },
    },
    401: { missing: MISSING_KEY },
    403: {
      plan: PLAN_REQUIRED,
      scope: {
        summary: 'The key lacks the scope',
        message: 'This key lacks the "read" scope',
        details: { required_scope: 'read', key_scopes: ['ingest'] },
      },
    },
    413: { tooLarge: { summary: 'A body over 5 MB', message: 'Request body is too large' } },
    415: {
      unsupported: {
        summary: 'A content type the service does not parse (application/xml, say)',
        message: 'Unsupported Media Type',
      },
    },
    429: {
      hourly: {
        summary: 'Hourly window full',
        message: 'Hourly limit of 100 requests reached',
        details: {
          limit: 100,
          remaining: 0,
          reset_at: '2026-11-22T10:12:03.000Z',
          retry_after: 1800,
        },
      },
      credits: {
        summary: 'Monthly credits spent',
        message: CREDITS_SPENT,
        details: CREDITS_LIMITS,
      },
    },
    500: { internal: { summary: 'Unexpected error', message: 'An unexpected error occurred' } },
    503: { redis: UNAVAILABLE },
  },
  coded: {
    401: { missing: MISSING_KEY },
    403: { plan: PLAN_REQUIRED },
    429: {
      credits: {
        summary: 'Monthly credits spent',
        message: CREDITS_SPENT,
        code: 'INSUFFICIENT_CREDITS',
        // The coded shape adds these (metering/limit-exceeded.ts).
        details: {
          ...CREDITS_LIMITS,
          required: 1,
          seconds_until_reset: 739200,
          message: CREDITS_SPENT,
        },
      },
    },
    500: {
      database: {
        summary: 'A data query failed',
        message: 'A data query failed',
        code: 'DB_ERROR',
      },
    },
    503: { unavailable: UNAVAILABLE },
  },
};

/** The body schema of each status, in each shape. */
function errorType(shape: ErrorShape, status: ErrorStatus): Type<unknown> {
  const coded = shape === 'coded';
  if (status === 503) return coded ? CodedServiceUnavailableErrorDto : ServiceUnavailableErrorDto;
  if (status === 429) return coded ? CodedRateLimitedErrorDto : RateLimitedErrorDto;
  if (status >= 500) return coded ? CodedServerErrorDto : GeneralServerErrorDto;
  return coded ? CodedErrorDto : GeneralErrorDto;
}

const RETRY_AFTER_HEADER = {
  'Retry-After': {
    description: 'Seconds to wait before retrying',
    schema: { type: 'integer', minimum: 0 },
    required: true,
  },
};

/** The headers an error answer carries, by status. */
const ERROR_HEADERS: Partial<Record<ErrorStatus, ApiResponseCommonMetadata['headers']>> = {
  401: {
    'WWW-Authenticate': {
      description: 'The scheme to authenticate with (RFC 6750)',
      schema: { type: 'string', enum: ['Bearer'] },
      required: true,
    },
  },
  429: RETRY_AFTER_HEADER,
  503: RETRY_AFTER_HEADER,
};

/**
 * The error responses a route can give, each with the body schema of its shape and examples
 * (the route's own, else defaults for 401, 403, 413, 415, 429, 500 and 503). A route that
 * authenticates (401) can also answer 429 (limits) and 503 (Redis, which meters it, or the
 * database away); every route can answer 408, 414 and 431 (a request too slow to arrive, a URL
 * or headers past the size limits).
 */
export function ApiErrorResponses(
  shape: ErrorShape,
  statuses: ErrorStatus[],
  examples: ErrorExamples = {},
): MethodDecorator {
  const all = new Set<ErrorStatus>([
    ...statuses,
    ...(statuses.includes(401) ? ([429, 503] as const) : []),
    408,
    414,
    431,
  ]);
  return applyDecorators(
    DeclareErrorShape(shape),
    ...[...all].map((status) => {
      const chosen = examples[status] ?? DEFAULT_EXAMPLES[shape][status];
      return ApiResponse({
        status,
        description: ERROR_DESCRIPTIONS[status],
        type: errorType(shape, status),
        headers: ERROR_HEADERS[status],
        examples:
          chosen &&
          Object.fromEntries(
            Object.entries(chosen).map(([name, example]) => [
              name,
              exampleOf(example, status, shape),
            ]),
          ),
      });
    }),
  ) as MethodDecorator;
}

const CACHE_HEADERS = {
  ETag: {
    description:
      'Present when the answer is addressed by a version, or a period that has ended: send it ' +
      'back as If-None-Match to get 304 while the answer is unchanged',
    schema: { type: 'string' },
  },
  'Cache-Control': {
    description:
      'With ETag: private, max-age=60 for a set of scrape files or the earliest extraction of a ' +
      'period (another scrape or extraction may still add to it; max-age=0 while there is no ' +
      'file yet), private, max-age=3600 for one extraction or the diff of two',
    schema: { type: 'string' },
  },
} as const;

/**
 * A 200 that is cacheable when addressed by a version or a closed period (ETag and
 * Cache-Control), and the 304 a matching If-None-Match gets instead (not charged).
 */
export function ApiCacheableOk(type: Type<unknown>, description: string): MethodDecorator {
  return applyDecorators(
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description: 'The ETag of an earlier answer: 304 without a body when it still matches',
    }),
    ApiResponse({
      status: 200,
      description,
      type,
      headers: { ...CACHE_HEADERS },
    }),
    ApiResponse({
      status: 304,
      description:
        'Not Modified: If-None-Match matched the ETag of this answer. No body; not charged',
      headers: { ...CACHE_HEADERS },
    }),
  ) as MethodDecorator;
}
