import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { BatchLedger, CheckedRecordSeal, IngestQueue } from '#app/contracts';
import { AppendRecordsHandler } from './ingestion/append-records.handler.js';
import { IngestWorkerHost } from './ingestion/ingest-worker.host.js';
import { IngestProcessor } from './ingestion/ingest.processor.js';
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
    AppendRecordsHandler,
    // The batch counters live beside the queue, on its producer connection.
    IngestQueue,
    BatchLedger,
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
