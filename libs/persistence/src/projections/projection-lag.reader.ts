import { Injectable } from '@nestjs/common';
import { EventStore } from '../events/event-store.js';
import { CheckpointStore } from './checkpoint-store.js';

export interface ProjectionLag {
  projector: string;
  /** Events in the log that the projector has not applied yet. */
  events: number;
  /** How long the oldest of them has waited (0 when caught up). */
  seconds: number;
}

/** How far each projector is behind the log: for metrics and readiness. */
@Injectable()
export class ProjectionLagReader {
  constructor(
    private readonly checkpoints: CheckpointStore,
    private readonly events: EventStore,
  ) {}

  async read(now = new Date()): Promise<ProjectionLag[]> {
    const checkpoints = await this.checkpoints.all();
    return Promise.all(
      checkpoints.map(async ({ name, position }) => {
        const backlog = await this.events.backlogAfter(position);
        const waited = backlog.oldestRecordedAt
          ? (now.getTime() - backlog.oldestRecordedAt.getTime()) / 1000
          : 0;
        return { projector: name, events: backlog.events, seconds: Math.max(0, waited) };
      }),
    );
  }
}
