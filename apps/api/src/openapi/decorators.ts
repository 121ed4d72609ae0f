import { applyDecorators, type Type } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiHeader,
  ApiResponse,
  ApiSecurity,
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
import { errorStatus } from '../errors/error-body.js';

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

/** The two error body shapes: coded on files and pricing, general everywhere else. */
type ErrorStatus = 400 | 401 | 403 | 404 | 408 | 413 | 414 | 415 | 429 | 431 | 500 | 503;
export type ErrorExamples = Partial<Record<ErrorStatus, Record<string, ApiResponseExamples>>>;

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

const KEY_HINT = 'Send the key as "Authorization: Bearer <key>" or "X-API-Key: <key>"';

function generalExample(
  status: ErrorStatus,
  message: string,
  details?: Record<string, unknown>,
): unknown {
  return { error: errorStatus(status).category, message, ...(details ? { details } : {}) };
}

const SERVER_ERROR_TRACE = {
  request_id: 'b3f1c9e2-6a4d-4c1b-9e8f-2d7a5c3b1e0f',
  timestamp: '2025-10-16T08:30:00.000Z',
};

const DEFAULT_EXAMPLES: Record<ErrorShape, ErrorExamples> = {
  general: {
    400: {
      badUrl: {
        summary: 'A path that is not valid percent-encoded UTF-8',
        value: generalExample(400, "'/v1/admin/keys/%E0%A4%A' is not a valid url component"),
      },
    },
    401: {
      missing: {
        summary: 'No key',
        value: generalExample(401, 'An API key is required', { hint: KEY_HINT }),
      },
    },
    403: {
      plan: {
        summary: 'The plan lacks the feature',
        value: generalExample(403, 'Your plan does not include pricing', {
          required_plan: 'pro',
          current_plan: 'free',
          upgrade_url: 'https://example.com/pricing',
        }),
      },
      scope: {
        summary: 'The key lacks the scope',
        value: generalExample(403, 'This key lacks the "read" scope', {
          required_scope: 'read',
          key_scopes: ['ingest'],
        }),
      },
    },
    413: {
      tooLarge: {
        summary: 'A body over 5 MB',
        value: generalExample(413, 'Request body is too large'),
      },
    },
    415: {
      unsupported: {
        summary: 'A content type the service does not parse (application/xml, say)',
        value: generalExample(415, 'Unsupported Media Type'),
      },
    },
    429: {
      hourly: {
        summary: 'Hourly window full',
        value: {
          ...(generalExample(429, 'Hourly limit of 100 requests reached', {
            limit: 100,
            remaining: 0,
            reset_at: '2026-11-22T10:12:03.000Z',
            retry_after: 1800,
          }) as object),
          retry_after: 1800,
        },
      },
      credits: {
        summary: 'Monthly credits spent',
        value: {
          ...(generalExample(
            429,
            'No credits left this month: they reset at 2026-12-01T00:00:00.000Z',
            {
              limit: 1000,
              remaining: 0,
              reset_at: '2026-12-01T00:00:00.000Z',
              retry_after: 739200,
            },
          ) as object),
          retry_after: 739200,
        },
      },
    },
    500: {
      internal: {
        summary: 'Unexpected error',
        value: {
          ...(generalExample(500, 'An unexpected error occurred') as object),
          ...SERVER_ERROR_TRACE,
        },
      },
    },
    503: {
      redis: {
        summary: 'Redis or the database unreachable',
        value: {
          ...(generalExample(
            503,
            'A backing service is unavailable; nothing was done. Retry shortly',
            { retry_after: 5 },
          ) as object),
          retry_after: 5,
        },
      },
    },
  },
  coded: {
    401: {
      missing: {
        summary: 'No key',
        value: {
          error: 'An API key is required',
          code: 'AUTH_INVALID',
          details: { hint: KEY_HINT },
        },
      },
    },
    403: {
      plan: {
        summary: 'The plan lacks the feature',
        value: {
          error: 'Your plan does not include pricing',
          code: 'PLAN_REQUIRED',
          details: {
            required_plan: 'pro',
            current_plan: 'free',
            upgrade_url: 'https://example.com/pricing',
          },
        },
      },
    },
    429: {
      credits: {
        summary: 'Monthly credits spent',
        value: {
          error: 'No credits left this month: they reset at 2026-12-01T00:00:00.000Z',
          code: 'INSUFFICIENT_CREDITS',
          details: {
            limit: 1000,
            remaining: 0,
            reset_at: '2026-12-01T00:00:00.000Z',
            required: 1,
            seconds_until_reset: 739200,
            message: 'No credits left this month: they reset at 2026-12-01T00:00:00.000Z',
            retry_after: 739200,
          },
          retry_after: 739200,
        },
      },
    },
    500: {
      database: {
        summary: 'A data query failed',
        value: { error: 'A data query failed', code: 'DB_ERROR', ...SERVER_ERROR_TRACE },
      },
    },
    503: {
      unavailable: {
        summary: 'Redis or the database unreachable',
        value: {
          error: 'A backing service is unavailable; nothing was done. Retry shortly',
          code: 'SERVICE_UNAVAILABLE',
          details: { retry_after: 5 },
          retry_after: 5,
        },
      },
    },
  },
};

function errorType(family: ErrorShape, status: ErrorStatus): Type<unknown> {
  if (status === 503) {
    return family === 'coded' ? CodedServiceUnavailableErrorDto : ServiceUnavailableErrorDto;
  }
  if (status === 429) return family === 'coded' ? CodedRateLimitedErrorDto : RateLimitedErrorDto;
  if (status >= 500) return family === 'coded' ? CodedServerErrorDto : GeneralServerErrorDto;
  return family === 'coded' ? CodedErrorDto : GeneralErrorDto;
}

/**
 * The error responses a route can give, each with the body schema of its family and examples
 * (the route's own, else defaults for 401, 403, 413, 415, 429, 500 and 503). A route that
 * authenticates (401) can also answer 429 (limits) and 503 (Redis, which meters it, or the
 * database away); every route can answer 408, 414 and 431 (a request too slow to arrive, a URL
 * or headers past the size limits).
 */
export function ApiErrorResponses(
  family: ErrorShape,
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
    DeclareErrorShape(family),
    ...[...all].map((status) => {
      const chosen = examples[status] ?? DEFAULT_EXAMPLES[family][status];
      return ApiResponse({
        status,
        description: ERROR_DESCRIPTIONS[status],
        type: errorType(family, status),
        ...(status === 503 || status === 429
          ? {
              headers: {
                'Retry-After': {
                  description: 'Seconds to wait before retrying',
                  schema: { type: 'integer', minimum: 0 },
                  required: true,
                },
              },
            }
          : {}),
        ...(status === 401
          ? {
              headers: {
                'WWW-Authenticate': {
                  description: 'The scheme to authenticate with (RFC 6750)',
                  schema: { type: 'string', enum: ['Bearer'] },
                  required: true,
                },
              },
            }
          : {}),
        ...(chosen ? { examples: chosen } : {}),
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
export function ApiCacheableOk(
  type: Type<unknown>,
  description: string,
  examples?: Record<string, ApiResponseExamples>,
): MethodDecorator {
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
      ...(examples ? { examples } : {}),
    }),
    ApiResponse({
      status: 304,
      description:
        'Not Modified: If-None-Match matched the ETag of this answer as it stands. No body; not ' +
        'charged',
      headers: { ...CACHE_HEADERS },
    }),
  ) as MethodDecorator;
}
