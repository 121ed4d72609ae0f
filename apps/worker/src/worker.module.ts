import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { CheckedRecordSeal } from '#app/contracts';
import { CaptureScrapeHandler } from './ingestion/handlers/capture-scrape.handler.js';
import { ExtractPricingHandler } from './ingestion/handlers/extract-pricing.handler.js';
import { RegisterCompanyHandler } from './ingestion/handlers/register-company.handler.js';
import { RegisterPricingPageHandler } from './ingestion/handlers/register-pricing-page.handler.js';
import { RecordExchangeRateHandler } from './ingestion/handlers/record-exchange-rate.handler.js';
import { IngestWorkerHost } from './ingestion/ingest-worker.host.js';
import { IngestProcessor } from './ingestion/ingest.processor.js';
import { RecordAppender } from './ingestion/record-appender.js';
import { EventsAppendedHandler } from './projections/events-appended.handler.js';
import { ProjectionScheduler } from './projections/projection.scheduler.js';
import { ProjectionsModule } from './projections/projections.module.js';
import { WebhookDeliveryHost } from './webhooks/webhook-delivery.host.js';
import { WebhookDispatcher } from './webhooks/webhook-dispatcher.js';

/**
 * Consumes the ingest queue, appends events, keeps the read models up to date, and delivers
 * pricing changes to webhooks.
 */
@Module({
  imports: [CqrsModule, ProjectionsModule],
  providers: [
    RecordAppender,
    RegisterCompanyHandler,
    RegisterPricingPageHandler,
    CaptureScrapeHandler,
    ExtractPricingHandler,
    RecordExchangeRateHandler,
    CheckedRecordSeal,
    IngestProcessor,
    IngestWorkerHost,
    ProjectionScheduler,
    EventsAppendedHandler,
    WebhookDispatcher,
    WebhookDeliveryHost,
  ],
})
export class WorkerModule {}
