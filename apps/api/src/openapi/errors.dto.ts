import { ApiSchema, type ApiPropertyOptions } from '@nestjs/swagger';
import { GENERAL_ERROR_CATEGORIES } from '../errors/error-body.js';
import { Properties } from './properties.js';

/**
 * The two error body shapes (docs/API.md, "Errors"), as documentation classes: files and pricing
 * answer `{error, code, details?}`, every other route `{error, message, details?}`. The global
 * filter (errors/error-body.ts) writes them; these classes only describe them.
 */

const ANY_VALUE = { description: 'The value as it was given (a string, number, array or object)' };

/** Keys of `details` on a refusal of the key, in either shape. */
const ACCESS_DETAILS = {
  hint: { type: 'string', description: 'How to authenticate' },
  required_plan: {
    type: 'string',
    nullable: true,
    description: 'The cheapest plan that has the feature (null when no plan has it)',
  },
  current_plan: { type: 'string', description: "The key's plan" },
  upgrade_url: { type: 'string', description: 'Where to change plan' },
  required_scope: { type: 'string', description: 'The scope the route needs' },
  key_scopes: { type: 'array', items: { type: 'string' }, description: "The key's scopes" },
} as const;

/** The optional, open `details` of a shape, with the keys it may have. */
function details(description: string, properties: object): ApiPropertyOptions {
  return {
    type: 'object',
    additionalProperties: true,
    description,
    properties,
  } as ApiPropertyOptions;
}

/** Known keys of `details` on the general shape; which ones appear depends on the error. */
const GENERAL_DETAILS = details(
  'What went wrong, in fields a program can read. Which fields appear depends on the error: ' +
    'a bad parameter has parameter, provided and expected (or max, or valid_values); 401 has ' +
    'hint; 403 has required_plan, current_plan and upgrade_url (plan) or required_scope and ' +
    'key_scopes (scope); an unknown company has slug and suggestion; an invalid batch has ' +
    'invalid; an invalid request body has errors.',
  {
    parameter: { type: 'string', description: 'The parameter or field at fault' },
    provided: ANY_VALUE,
    expected: { type: 'string', description: 'What the parameter accepts' },
    max: { type: 'integer', description: 'Upper limit of the parameter' },
    valid_values: {
      type: 'array',
      items: { type: 'string' },
      description: 'Every accepted value',
    },
    ...ACCESS_DETAILS,
    slug: { type: 'string', description: 'The slug that was not found' },
    suggestion: {
      type: 'string',
      description: 'The closest existing company slug, or a hint to use ?search=',
    },
    pages: {
      type: 'array',
      items: { type: 'string' },
      description: 'A company with several pages, none primary: the composite slugs to choose from',
    },
    invalid: {
      type: 'array',
      description: 'An invalid batch: every bad record of it',
      items: {
        type: 'object',
        required: ['index', 'type', 'reasons'],
        properties: {
          index: { type: 'integer', minimum: 0, description: 'Position in the batch' },
          type: { type: 'string', nullable: true, description: 'The record type, when it has one' },
          reasons: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    errors: {
      type: 'array',
      description: 'An invalid request body: each of its invalid fields',
      items: {
        type: 'object',
        required: ['field', 'reasons'],
        properties: {
          field: { type: 'string' },
          reasons: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    batch_id: { type: 'string', description: 'The batch that was not found' },
    id: { type: 'string', description: 'The key id that was not found' },
    retry_after: { type: 'integer', minimum: 0, description: 'Seconds to wait before retrying' },
    limit_bytes: { type: 'integer', description: 'The size limit that was passed (414)' },
  },
);

/** Known keys of `details` on the coded shape (files and pricing). */
const CODED_DETAILS = details(
  'What went wrong, in fields a program can read. Time-format errors have provided (and ' +
    'examples for INVALID_PERIOD_FORMAT); NOT_FOUND has slug and message; VERSION_NOT_FOUND has ' +
    'slug, requested_version, message, available_versions, latest_version and suggestion; ' +
    'PERIOD_NOT_FOUND has slug, requested_period, message, latest_version and suggestion.',
  {
    provided: ANY_VALUE,
    examples: {
      type: 'object',
      description: 'One example of each time format',
      properties: {
        version: { type: 'string' },
        quarter: { type: 'string' },
        week: { type: 'string' },
        month: { type: 'string' },
      },
    },
    parameter: { type: 'string', description: 'The parameter at fault' },
    max: { type: 'integer', description: 'Upper limit of the parameter' },
    slug: { type: 'string' },
    message: { type: 'string', description: 'The error explained' },
    requested_version: { type: 'string', nullable: true },
    requested_period: { type: 'string' },
    available_versions: {
      type: 'array',
      items: { type: 'string' },
      description: 'Versions that have an extraction, oldest first',
    },
    latest_version: { type: 'string', nullable: true },
    suggestion: { type: 'string' },
    ...ACCESS_DETAILS,
    pages: {
      type: 'array',
      items: { type: 'string' },
      description: 'PAGE_REQUIRED: the composite slugs of the pages to choose from',
    },
  },
);

/** What a 500 adds to either shape. */
const SERVER_ERROR_TRACE = {
  request_id: { description: 'The X-Request-Id of the request', example: 'req-7f3a' },
  timestamp: { format: 'date-time', example: '2025-10-16T08:30:00.000Z' },
};

/** `retry_after` of a 429 or 503, at the top level and in details. */
const retryAfter = (minimum: number, example: number) =>
  ({ type: 'integer', minimum, example, description: 'Seconds to wait' }) as const;

@ApiSchema({
  name: 'GeneralError',
  description:
    'Error body of every route but files and pricing. `error` is the category as the live ' +
    'service writes it (clients compare these strings), `message` the explanation. It has no ' +
    'code: the status, the category and the fields of details tell errors apart.',
})
export class GeneralErrorDto extends Properties({
  error: { enum: GENERAL_ERROR_CATEGORIES, example: 'Bad Request' },
  message: { example: 'limit must be an integer from 1 to 100' },
  'details?': GENERAL_DETAILS,
}) {}

@ApiSchema({
  name: 'GeneralServerError',
  description:
    'A 500 in the general shape: never a stack trace or SQL; quote request_id to report it.',
})
export class GeneralServerErrorDto extends Properties({
  error: { enum: ['Internal Server Error'], example: 'Internal Server Error' },
  message: { example: 'An unexpected error occurred' },
  'details?': GENERAL_DETAILS,
  ...SERVER_ERROR_TRACE,
}) {}

@ApiSchema({
  name: 'RetryAfterDetails',
  description: 'Details of a 503: when to retry.',
})
class RetryAfterDetailsDto extends Properties({
  retry_after: retryAfter(0, 5),
}) {}

@ApiSchema({
  name: 'ServiceUnavailableError',
  description:
    'A backing service (Redis or the database) is unreachable; nothing was done. `retry_after` ' +
    'is given both at the top level and in details, and as the Retry-After header.',
})
export class ServiceUnavailableErrorDto extends Properties({
  error: { enum: ['Service Unavailable'], example: 'Service Unavailable' },
  message: { example: 'A backing service is unavailable; nothing was done. Retry shortly' },
  details: { type: () => RetryAfterDetailsDto },
  retry_after: retryAfter(0, 5),
}) {}

@ApiSchema({
  name: 'CodedServiceUnavailableError',
  description:
    'A 503 on files and pricing, in their coded shape: a backing service (Redis or the ' +
    'database) is unreachable; nothing was done. `retry_after` as in ServiceUnavailableError.',
})
export class CodedServiceUnavailableErrorDto extends Properties({
  error: { example: 'A backing service is unavailable; nothing was done. Retry shortly' },
  code: { enum: ['SERVICE_UNAVAILABLE'], example: 'SERVICE_UNAVAILABLE' },
  details: { type: () => RetryAfterDetailsDto },
  retry_after: retryAfter(0, 5),
}) {}

@ApiSchema({
  name: 'CodedError',
  description:
    'Error body of files and pricing: `error` explains, `code` is a stable string to compare.',
})
export class CodedErrorDto extends Properties({
  error: { example: 'version must be a real date in YYYYMMDD form' },
  code: {
    description:
      '400: INVALID_VERSION, INVALID_QUARTER, INVALID_MONTH, INVALID_WEEK, ' +
      'INVALID_PERIOD_FORMAT, INVALID_PARAMETER, CONFLICTING_PARAMETERS, PAGE_REQUIRED; ' +
      '401: AUTH_INVALID; 403: PLAN_REQUIRED, SCOPE_REQUIRED; 404: NOT_FOUND, ' +
      'VERSION_NOT_FOUND, PERIOD_NOT_FOUND.',
    example: 'INVALID_VERSION',
  },
  'details?': CODED_DETAILS,
}) {}

@ApiSchema({
  name: 'CodedServerError',
  description:
    'A 500 in the coded shape: DB_ERROR when a data query failed, INTERNAL_ERROR otherwise. ' +
    'Never a stack trace or SQL; quote request_id when reporting it.',
})
export class CodedServerErrorDto extends Properties({
  error: { example: 'A data query failed' },
  code: { enum: ['DB_ERROR', 'INTERNAL_ERROR'], example: 'DB_ERROR' },
  'details?': CODED_DETAILS,
  ...SERVER_ERROR_TRACE,
}) {}

@ApiSchema({
  name: 'RateLimitDetails',
  description:
    'Details of a 429. INSUFFICIENT_CREDITS on files and pricing adds required, ' +
    'seconds_until_reset and message.',
})
class RateLimitDetailsDto extends Properties({
  limit: { type: 'integer', example: 100, description: 'The limit that was reached' },
  remaining: { type: 'integer', minimum: 0, example: 0 },
  reset_at: {
    format: 'date-time',
    example: '2026-11-22T10:12:03.000Z',
    description: 'When the limit admits a request again',
  },
  retry_after: retryAfter(1, 1800),
  'required?': { type: 'integer', example: 1, description: 'Credits the request needs' },
  'seconds_until_reset?': { type: 'integer', example: 739200 },
  'message?': {
    example: 'No credits left this month: they reset at 2026-12-01T00:00:00.000Z',
  },
}) {}

const RATE_LIMIT_CODES = [
  'INSUFFICIENT_CREDITS',
  'RATE_LIMIT_EXCEEDED',
  'BURST_LIMIT_EXCEEDED',
  'TOO_MANY_FAILED_AUTHENTICATIONS',
] as const;

@ApiSchema({
  name: 'RateLimitedError',
  description:
    'A 429 in the general shape: monthly credits spent, hourly window full, more than the ' +
    'burst limit a second, or too many failed authentications from the address. `retry_after` ' +
    'is given at the top level, in details and as Retry-After.',
})
export class RateLimitedErrorDto extends Properties({
  error: { enum: ['Rate limit exceeded'], example: 'Rate limit exceeded' },
  message: { example: 'Hourly limit of 100 requests reached' },
  details: { type: () => RateLimitDetailsDto },
  retry_after: retryAfter(1, 1800),
}) {}

@ApiSchema({
  name: 'CodedRateLimitedError',
  description:
    'A 429 on files and pricing: INSUFFICIENT_CREDITS when the monthly credits are spent (it ' +
    'wins when the hourly window is full too), RATE_LIMIT_EXCEEDED, BURST_LIMIT_EXCEEDED or ' +
    'TOO_MANY_FAILED_AUTHENTICATIONS otherwise.',
})
export class CodedRateLimitedErrorDto extends Properties({
  error: { example: 'No credits left this month: they reset at 2026-12-01T00:00:00.000Z' },
  code: { enum: RATE_LIMIT_CODES, example: 'INSUFFICIENT_CREDITS' },
  details: { type: () => RateLimitDetailsDto },
  retry_after: retryAfter(1, 739200),
}) {}
