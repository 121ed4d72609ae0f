import type { ServerResponse } from 'node:http';
import {
  Controller,
  Get,
  Headers,
  Logger,
  Query,
  Res,
  type BeforeApplicationShutdown,
} from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ServiceUnavailable } from '#app/contracts';
import { EXPORT_FORMATS, EXPORT_MEDIA_TYPES, type ExportFormat } from '#app/domain';
import type { FeedPosition } from '#app/persistence';
import type { FastifyReply } from 'fastify';
import { KeyAccess } from '../auth/api-key.guard.js';
import { PATTERNS } from '../openapi/patterns.js';
import { ApiQueryOf, declaredQuery } from '../http/query-declaration.js';
import { Currency, FeedCursor, Integer, OneOf } from '../http/query-parameters.js';
import { CreditCost } from '../metering/credit-cost.decorator.js';
import { ApiErrorResponses, ApiKeyAuth } from '../openapi/decorators.js';
import { EXPORT_BODY_EXAMPLES, EXPORT_ERROR_EXAMPLES } from './export.examples.js';
import { ExportQueries } from './export.queries.js';

/** Extractions per call, at most and by default. */
const MAX_LIMIT = 10_000;
/** Seconds a client is asked to wait when an export comes during a shutdown: a restart's. */
const RETRY_AFTER_SECONDS = 5;

class ExportQuery {
  // No default: left out, the Accept header decides (a tool sends a default as given).
  @OneOf(EXPORT_FORMATS, {
    description:
      'ndjson or csv. Without it, NDJSON, unless an Accept header names text/csv (before ' +
      'application/x-ndjson, if both)',
  })
  format?: ExportFormat;

  @FeedCursor(
    {
      description:
        'A cursor: the X-Next-Cursor of an earlier export, or a next_cursor of the change feed ' +
        '(opaque). Without it, from the first extraction',
      example: 'MC40Mi45OTk5OTk5OTk',
    },
    'since is not a cursor of the change feed: pass an X-Next-Cursor or next_cursor as it was given',
  )
  since!: FeedPosition;

  @Integer({
    minimum: 1,
    maximum: MAX_LIMIT,
    default: MAX_LIMIT,
    description: 'Extractions per call (a CSV has a line per charge of each)',
  })
  limit!: number;

  @Currency({
    description:
      'Three letters (ISO 4217, any case): each charge also carries converted (NDJSON), or ' +
      'the CSV gains converted_currency, converted_monthly_equivalent, rate and rate_date, ' +
      'such as EUR',
  })
  currency?: string;
}

/**
 * Every pricing extraction after a change-feed cursor, streamed for a warehouse: the feed, the
 * webhooks and an export sync share one position. An export lasts as long as its client takes
 * to read it, which may be for ever: at shutdown the ones being sent are cut (their clients
 * read again from the same cursor), or the server would wait for them past its grace time.
 */
@Controller('api/export')
@KeyAccess({ scope: 'read', feature: 'export' })
@ApiTags('Pricing')
@ApiKeyAuth()
@CreditCost(1)
export class ExportController implements BeforeApplicationShutdown {
  private readonly logger = new Logger(ExportController.name);
  private readonly sending = new Set<ServerResponse>();
  private closing = false;

  constructor(private readonly exports: ExportQueries) {}

  @Get('pricing')
  @ApiOperation({
    operationId: 'exportPricing',
    summary: 'Export the pricing extractions recorded after a cursor, as NDJSON or CSV',
    description:
      "Oldest first in the change feed's order, at most limit extractions per call, streamed. " +
      'NDJSON: one line per extraction, the document GET /v1/api/pricing/{slug}?version= gives ' +
      'for it (PricingDocument, every charge with monthly_equivalent). CSV (RFC 4180, CRLF line ' +
      'ends, an empty field for null, booleans true/false; text that starts with =, +, -, @, a ' +
      "tab or a carriage return gets a leading ', so that a spreadsheet shows it instead of " +
      'running it): a header line, then one line per charge. X-Next-Cursor is the position ' +
      'after the last extraction sent: pass it as since to read on, or to GET /v1/api/changes ' +
      "to follow the feed from there (it is the feed's cursor, and the feed takes the " +
      "export's). With currency, each document is the pricing route's with currency (every " +
      'charge with converted, currency and unconverted at the top), and a CSV line adds the ' +
      'converted figure. Past the end the body is empty (CSV: the header line alone) and ' +
      'X-Next-Cursor repeats the cursor. One credit per call, whatever its size; needs the ' +
      'export feature (enterprise by default).',
  })
  @ApiQueryOf(ExportQuery)
  @ApiResponse({
    status: 200,
    description: 'The extractions, streamed, and the cursor to read on from',
    headers: {
      'X-Next-Cursor': {
        description:
          'The position after the last extraction sent (the cursor given, past the end): the ' +
          "since of the next call, or of the change feed's",
        required: true,
        schema: { type: 'string', pattern: PATTERNS.cursor },
      },
    },
    content: {
      'application/x-ndjson': {
        schema: {
          type: 'string',
          description: 'One PricingDocument per line, as the pricing route gives it',
        },
        examples: EXPORT_BODY_EXAMPLES.ndjson,
      },
      'text/csv': {
        schema: { type: 'string', description: 'A header line, then one line per charge' },
        examples: EXPORT_BODY_EXAMPLES.csv,
      },
    },
  })
  @ApiErrorResponses('coded', [400, 401, 403, 500], EXPORT_ERROR_EXAMPLES.pricing)
  async pricing(
    @Query(declaredQuery) { format: given, since: after, limit, currency }: ExportQuery,
    @Headers('accept') accept: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const format = given ?? acceptedFormat(accept);
    const { next, body } = await this.exports.pricing({ after, limit, format, currency });
    if (this.closing) {
      body.destroy();
      throw new ServiceUnavailable(RETRY_AFTER_SECONDS);
    }
    const response = reply.raw;
    this.sending.add(response);
    response.once('close', () => this.sending.delete(response));
    // The client only sees the connection end too early: the cause goes to the log.
    body.once('error', (error) =>
      this.logger.error(`export ${reply.request.id} cut short: ${error.message}`),
    );
    // Sent by Fastify itself, which pipes the stream with backpressure and ends it when the
    // connection goes: Nest would copy a returned stream into one of its own.
    void reply.header('x-next-cursor', next).type(EXPORT_MEDIA_TYPES[format]).send(body);
  }

  beforeApplicationShutdown(): void {
    this.closing = true;
    for (const response of this.sending) response.destroy();
  }
}

/** Without format=, what the Accept header names first, of text/csv and NDJSON. */
function acceptedFormat(accept: string | undefined): ExportFormat {
  const named = (accept ?? '')
    .split(',')
    .map((range) => range.split(';')[0]!.trim().toLowerCase())
    .find((type) => type === 'text/csv' || type === EXPORT_MEDIA_TYPES.ndjson);
  return named === 'text/csv' ? 'csv' : 'ndjson';
}
