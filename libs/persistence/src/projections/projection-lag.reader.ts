import { Injectable } from '@nestjs/common';
import { EventStore } from '../events/event-store.js';
import { CheckpointStore, START_OF_LOG, type ProjectorFailure } from './checkpoint-store.js';

/**
 * The projectors' checkpoint names. They are stored in the database: never change one (its
 * projector would replay the log from the start); a new projector joins the list.
 */
export const PROJECTOR_NAMES = [
  'companies',
  'pages',
  'scrape-files',
  'pricing-snapshots',
  'pricing-changes',
  'exchange-rates',
  'plan-search',
  'price-index',
] as const;
export type ProjectorName = (typeof PROJECTOR_NAMES)[number];

/** Backlogs are counted up to this many events: enough to say "far behind", cheap to count. */
const LAG_COUNT_CAP = 1_000_000;

/** How long one reading serves metrics and readiness probes: they come in bursts. */
const READING_TTL_MS = 1_000;

interface ProjectionLag {
  projector: ProjectorName;
  /** Events in the log that the projector has not applied yet (at most LAG_COUNT_CAP). */
  events: number;
  /** How long the oldest of them has waited (0 when caught up). */
  seconds: number;
  /** Set when the projector stopped at an event it cannot apply (see ProjectionRunner). */
  failure: ProjectorFailure | null;
}

/**
 * How far each projector is behind the log, and whether it stopped, for metrics and readiness.
 * A projector with no checkpoint yet (no worker has run it) is behind by the whole log.
 */
@Injectable()
export class ProjectionLagReader {
  private last: { at: number; lag: Promise<ProjectionLag[]> } | null = null;

  constructor(
    private readonly checkpoints: CheckpointStore,
    private readonly events: EventStore,
  ) {}

  read(now = new Date()): Promise<ProjectionLag[]> {
    if (this.last && now.getTime() - this.last.at < READING_TTL_MS) return this.last.lag;
    const lag = this.readNow(now);
    this.last = { at: now.getTime(), lag };
    // A failed reading is not kept: the next caller asks the database again.
    lag.catch(() => (this.last = null));
    return lag;
  }

  private async readNow(now: Date): Promise<ProjectionLag[]> {
    const states = new Map((await this.checkpoints.states()).map((state) => [state.name, state]));
    return Promise.all(
      PROJECTOR_NAMES.map(async (projector) => {
        const state = states.get(projector);
        const backlog = await this.events.backlogAfter(
          state?.position ?? START_OF_LOG,
          LAG_COUNT_CAP,
        );
        const waited = backlog.oldestRecordedAt
          ? (now.getTime() - backlog.oldestRecordedAt.getTime()) / 1000
          : 0;
        return {
          projector,
          events: backlog.events,
          seconds: Math.max(0, waited),
          failure: state?.failure ?? null,
        };
      }),
    );
  }
}
