import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Registry } from 'prom-client';
import { Metrics } from './metrics.js';

/** `GET /metrics`: Prometheus text, for the operator's scraper (keep the port internal). */
@Controller('metrics')
@ApiExcludeController()
export class MetricsController {
  constructor(private readonly metrics: Metrics) {}

  @Get()
  @Header('content-type', Registry.PROMETHEUS_CONTENT_TYPE)
  exposition(): Promise<string> {
    return this.metrics.exposition();
  }
}
