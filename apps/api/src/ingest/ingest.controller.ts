import { Body, Controller, Get, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiKeyGuard } from '../auth/api-key.guard.js';
import { BatchStatusService, type BatchStatus } from './batch-status.service.js';
import { IngestService, type AcceptedBatch } from './ingest.service.js';

/** What scraper pipelines call. Needs a key with the `ingest` scope; costs no credit. */
@Controller('ingest')
@UseGuards(ApiKeyGuard('ingest'))
export class IngestController {
  constructor(
    private readonly ingest: IngestService,
    private readonly batches: BatchStatusService,
  ) {}

  /** A JSON array of records, or NDJSON (`Content-Type: application/x-ndjson`). */
  @Post('records')
  @HttpCode(202)
  push(@Body() body: unknown, @Req() request: FastifyRequest): Promise<AcceptedBatch> {
    return this.ingest.accept(body, request.id);
  }

  @Get('batches/:batchId')
  batch(@Param('batchId') batchId: string): Promise<BatchStatus> {
    return this.batches.status(batchId);
  }
}
