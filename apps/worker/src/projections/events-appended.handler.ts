import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import {
  CompanyProfileChanged,
  CompanyRegistered,
  PricingExtracted,
  PricingPageRegistered,
  ScrapeCaptured,
  type DomainEvent,
} from '#app/domain';
import { Metrics } from '#app/observability';
import { ProjectionScheduler } from './projection.scheduler.js';

/**
 * Events published after a commit in this process: counted, and projected now instead of at the
 * next tick.
 */
@EventsHandler(
  CompanyRegistered,
  CompanyProfileChanged,
  PricingPageRegistered,
  ScrapeCaptured,
  PricingExtracted,
)
export class EventsAppendedHandler implements IEventHandler<DomainEvent> {
  constructor(
    private readonly scheduler: ProjectionScheduler,
    private readonly metrics: Metrics,
  ) {}

  handle(event: DomainEvent): void {
    this.metrics.eventsAppended.inc({ type: event.type });
    this.scheduler.nudge();
  }
}
