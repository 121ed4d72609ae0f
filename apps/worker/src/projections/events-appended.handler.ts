import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { EVENT_CLASSES, type RegisteredEvent } from '#app/domain';
import { Metrics } from '#app/observability';
import { ProjectionScheduler } from './projection.scheduler.js';

/**
 * Events published after a commit in this process: counted, and projected now instead of at the
 * next tick.
 */
@EventsHandler(...Object.values(EVENT_CLASSES))
export class EventsAppendedHandler implements IEventHandler<RegisteredEvent> {
  constructor(
    private readonly scheduler: ProjectionScheduler,
    private readonly metrics: Metrics,
  ) {}

  handle(event: RegisteredEvent): void {
    this.metrics.eventsAppended.inc({ type: event.type });
    this.scheduler.nudge();
  }
}
