import { Body, Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import {
  BatchStatusService,
  IngestService,
  MAX_BATCH_BYTES,
  type AcceptedBatch,
  type BatchStatus,
} from '#app/ingest';
import type { FastifyRequest } from 'fastify';
import { KeyAccess } from '../auth/api-key.guard.js';
import { BodyLimit, TakesBatches } from '../http/request-bodies.js';
import { ApiErrorResponses, ApiKeyAuth } from '../openapi/decorators.js';
import { CreditCost } from '../metering/credit-cost.decorator.js';
import { AcceptedBatchDto, BatchStatusDto } from './batches.dto.js';
import { INGEST_ERROR_EXAMPLES } from './ingest.examples.js';
import { PATTERNS } from '../openapi/patterns.js';
import { DOCUMENTED_RECORD_CLASSES } from '../openapi/record-schemas.js';

/**
 * The request body's example: the demo catalogue's own first records (`npm start` loads them), so
 * sending it to a seeded service is a no-op, as the same record sent again is.
 */
const EXAMPLE_RECORDS = [
  {
    type: 'company',
    slug: 'acmechat.io',
    name: 'AcmeChat',
    category: 'Communication',
    employees: '51-200',
    url: 'https://www.acmechat.io',
  },
  {
    type: 'page',
    company_slug: 'acmechat.io',
    page_slug: '',
    pricing_page_url: 'https://www.acmechat.io/pricing',
  },
];

const RECORD_SCHEMA = {
  oneOf: Object.values(DOCUMENTED_RECORD_CLASSES).map((model) => ({ $ref: getSchemaPath(model) })),
  discriminator: {
    propertyName: 'type',
    mapping: Object.fromEntries(
      Object.entries(DOCUMENTED_RECORD_CLASSES).map(([type, model]) => [
        type,
        getSchemaPath(model),
      ]),
    ),
  },
};

/** What scraper pipelines call. Needs a key with the `ingest` scope; costs no credit. */
@Controller('ingest')
@KeyAccess({ scope: 'ingest' })
@ApiTags('Ingestion')
@ApiKeyAuth()
@CreditCost(0)
@ApiExtraModels(...Object.values(DOCUMENTED_RECORD_CLASSES))
export class IngestController {
  constructor(
    private readonly ingest: IngestService,
    private readonly batches: BatchStatusService,
  ) {}

  /** A JSON array of records, or NDJSON (`Content-Type: application/x-ndjson`). */
  @Post('records')
  @HttpCode(202)
  @BodyLimit(MAX_BATCH_BYTES)
  @TakesBatches()
  @ApiOperation({
    operationId: 'ingestRecords',
    summary: 'Push a batch of records',
    description:
      'Up to 1,000 records and 5 MB, as a JSON array or as NDJSON (one record per line). The ' +
      'whole batch is validated first: if any record is invalid the answer is 400 with the ' +
      'index and reasons of each bad record, and nothing is queued. Otherwise 202 once every ' +
      "record is durably queued (where the queue's Redis has replicas, once one holds the " +
      'jobs: past the configured wait the answer is 503, and the batch sent again is ' +
      'applied once); follow it with GET /v1/ingest/batches/{batch_id}. The same ' +
      'record sent again is a no-op; other content under a known natural key is refused (a ' +
      'failed record). Needs a key with the ingest scope; costs no credit.',
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: { type: 'array', minItems: 1, maxItems: 1000, items: RECORD_SCHEMA },
          example: EXAMPLE_RECORDS,
        },
        'application/x-ndjson': {
          schema: {
            type: 'string',
            description: 'One JSON record (as in the application/json array) per line',
          },
          example: EXAMPLE_RECORDS.map((record) => JSON.stringify(record)).join('\n'),
        },
      },
    },
  })
  @ApiAcceptedResponse({ type: AcceptedBatchDto, description: 'Every record is queued' })
  @ApiErrorResponses('general', [400, 401, 403, 413, 415, 500, 503], INGEST_ERROR_EXAMPLES.push)
  push(@Body() body: unknown, @Req() request: FastifyRequest): Promise<AcceptedBatch> {
    return this.ingest.accept(body, request.id);
  }

  @Get('batches/:batchId')
  @ApiOperation({
    operationId: 'getBatchStatus',
    summary: 'Status of a pushed batch',
    description:
      'How many of its records are waiting, active, done, duplicate and failed, with the ' +
      'reason of each failure. complete is true once none is waiting or active.',
  })
  @ApiParam({
    name: 'batchId',
    description: 'batch_id from the 202 of POST /v1/ingest/records',
    // Inside the schema: Nest drops a parameter's own example when a schema is given (the
    // document moves it back out). The service assigns batch ids: this shows the form only.
    schema: {
      type: 'string',
      format: 'uuid',
      pattern: PATTERNS.uuid,
      example: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
    },
  })
  @ApiOkResponse({ type: BatchStatusDto, description: 'The batch' })
  @ApiErrorResponses('general', [400, 401, 403, 404, 500, 503], INGEST_ERROR_EXAMPLES.batch)
  batch(@Param('batchId') batchId: string): Promise<BatchStatus> {
    return this.batches.status(batchId);
  }
}
