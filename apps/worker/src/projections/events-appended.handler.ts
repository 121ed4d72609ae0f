import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import {
  CompanyProfileChanged,
  CompanyRegistered,
  PricingExtracted,
  PricingPageRegistered,
  ScrapeCaptured,
  type DomainEvent,
} from '#app/domain';
import { ProjectionScheduler } from './projection.scheduler.js';

/** Events published after a commit in this process: project them now instead of at the next tick. */
@EventsHandler(
  CompanyRegistered,
  CompanyProfileChanged,
  PricingPageRegistered,
  ScrapeCaptured,
  PricingExtracted,
)
export class EventsAppendedHandler implements IEventHandler<DomainEvent> {
  constructor(private readonly scheduler: ProjectionScheduler) {}

  handle(): void {
    this.scheduler.nudge();
  }
}
