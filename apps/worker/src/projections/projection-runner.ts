import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '#app/config';
import { decodeEvent } from '#app/domain';
import {
  CheckpointStore,
  EventStore,
  isTransientDatabaseError,
  START_OF_LOG,
  TransactionRunner,
  type LogPosition,
  type PositionedEvent,
  type ProjectorFailure,
  type Transaction,
} from '#app/persistence';
import { PROJECTORS, type Projector } from './projector.js';

type BatchListener = (projector: string, applied: number) => void;

/**
 * Events a rebuild reads at a time: it replays the whole log in a process that does nothing
 * else, where reads of 2,000 replayed 18,200 to 18,900 events a second against 17,400 to 17,900
 * with the worker's PROJECTION_BATCH_SIZE (1,000, which keeps a worker projecting behind a fast
 * ingestion under 200 MB).
 */
const REBUILD_BATCH_SIZE = 2_000;

/** What a projector could not apply and why. */
type Stop = Omit<ProjectorFailure, 'failedAt'>;

/** A projector met an event it cannot apply during a rebuild, which therefore changed nothing. */
export class ProjectorFailedError extends Error {
  constructor(
    readonly projector: string,
    readonly stop: Stop,
  ) {
    super(
      `rebuild rolled back, the read models are as they were: projector ${projector} cannot ` +
        `apply ${describeStop(stop)}`,
    );
  }
}

export const describeStop = (stop: Stop) =>
  `event ${stop.eventSeq} (${stop.eventType}, stream ${stop.streamId}): ${stop.error}`;

/**
 * Moves projectors along the log. Each step applies one batch and moves the checkpoints in the
 * same transaction, under a lock on them: a batch is applied once, by one process, or (on any
 * failure of the database) not at all. Projectors fail alone: one that cannot apply an event
 * stays just before it, with the failure recorded on its checkpoint, and the others move on.
 */
@Injectable()
export class ProjectionRunner {
  private readonly logger = new Logger(ProjectionRunner.name);

  constructor(
    private readonly config: AppConfig,
    private readonly transactions: TransactionRunner,
    private readonly eventStore: EventStore,
    private readonly checkpoints: CheckpointStore,
    @Inject(PROJECTORS) readonly projectors: Projector[],
  ) {}

  async ensureCheckpoints(): Promise<void> {
    for (const projector of this.projectors) await this.checkpoints.ensure(projector.name);
  }

  /**
   * Applies what is visible now; returns how many events were read. A projector whose
   * checkpoint another process holds is skipped (that process is moving it) unless `wait` is
   * set, and so is a failed one; `stopping` ends the run between two batches.
   */
  async catchUp(
    onBatch?: BatchListener,
    { wait = false, stopping = () => false }: { wait?: boolean; stopping?: () => boolean } = {},
  ): Promise<number> {
    let total = 0;
    // Between batches, so a shutdown does not wait for a long backlog (each batch is whole).
    const step = async () => (stopping() ? 0 : this.step(wait, onBatch));
    for (let read = await step(); read > 0; read = await step()) total += read;
    return total;
  }

  /**
   * Empties every read model and replays the whole log into it in ONE transaction, so readers
   * keep the read models they had until it commits, and a rebuild that fails (a projector
   * cannot apply an event: ProjectorFailedError) leaves them exactly as they were. It clears
   * every recorded failure, and returns once every projector has reached the end of the log
   * (events appended meanwhile are applied after the swap, as a worker would).
   */
  async rebuild(onBatch?: BatchListener): Promise<number> {
    await this.ensureCheckpoints();
    const names = this.projectors.map((projector) => projector.name);
    let applied = await this.transactions.run(async (tx) => {
      // Waits for a worker that is applying a batch right now, rather than skipping.
      await this.checkpoints.claim(tx, names, { wait: true, includeFailed: true });
      for (const projector of this.projectors) await projector.clear(tx);
      await this.checkpoints.advance(tx, names, START_OF_LOG);
      await this.checkpoints.clearFailures(names, tx);
      let total = 0;
      for (;;) {
        const counts: [string, number][] = [];
        const read = await this.applyNext(
          tx,
          { wait: true, onStop: 'throw', batchSize: REBUILD_BATCH_SIZE },
          counts,
        );
        for (const [projector, count] of counts) onBatch?.(projector, count);
        if (read === 0) break;
        total += read;
      }
      return total;
    });
    while (await this.anyBehind()) {
      applied += await this.catchUp(onBatch, { wait: true });
      if (await this.anyBehind()) {
        // On PostgreSQL a transaction still open elsewhere can hold the last events back.
        await new Promise((next) => setTimeout(next, this.config.projections.pollMs));
      }
    }
    return applied;
  }

  /** Lets failed projectors (all when none is named) move again; answers those that had failed. */
  retry(names: readonly string[] = this.projectors.map((projector) => projector.name)) {
    return this.checkpoints.clearFailures(names);
  }

  private async anyBehind(): Promise<boolean> {
    for (const state of await this.checkpoints.states()) {
      if (state.failure) continue;
      if (await this.eventStore.hasEventsAfter(state.position)) return true;
    }
    return false;
  }

  /** One batch in one transaction; failures are logged once it has committed. */
  private async step(wait: boolean, onBatch?: BatchListener): Promise<number> {
    const applied: [projector: string, events: number][] = [];
    const stops: [projector: string, stop: Stop][] = [];
    const read = await this.transactions.run((tx) =>
      this.applyNext(
        tx,
        { wait, onStop: 'record', stops, batchSize: this.config.projections.batchSize },
        applied,
      ),
    );
    for (const [projector, events] of applied) onBatch?.(projector, events);
    for (const [projector, stop] of stops) {
      this.logger.error(
        `projector ${projector} stopped: it cannot apply ${describeStop(stop)}. ` +
          `Projectors that can apply it move on; after a fix, \`cli projections retry ${projector}\``,
      );
    }
    return read;
  }

  /**
   * Applies the next batch of each claimed projector. Projectors standing at the same position
   * (usually all of them) share one read of the log, so the log is read once however many read
   * models it feeds. A projector that cannot apply an event either stops just before it
   * (`record`) or ends the transaction with ProjectorFailedError (`throw`).
   */
  private async applyNext(
    tx: Transaction,
    options: { wait: boolean; batchSize: number } & (
      { onStop: 'record'; stops: [string, Stop][] } | { onStop: 'throw' }
    ),
    applied: [string, number][],
  ): Promise<number> {
    const claimed = await this.checkpoints.claim(
      tx,
      this.projectors.map((projector) => projector.name),
      { wait: options.wait, includeFailed: options.onStop === 'throw' },
    );
    const atPosition = new Map<string, { position: LogPosition; projectors: Projector[] }>();
    for (const projector of this.projectors) {
      const position = claimed.get(projector.name);
      if (!position) continue;
      const key = `${position.transactionId}/${position.seq}`;
      const group = atPosition.get(key) ?? { position, projectors: [] };
      group.projectors.push(projector);
      atPosition.set(key, group);
    }
    let read = 0;
    for (const { position, projectors } of atPosition.values()) {
      const batch = await this.eventStore.readForProjection(tx, position, options.batchSize);
      const last = batch.at(-1);
      if (!last) continue;
      const moved: string[] = [];
      for (const projector of projectors) {
        const stopped = await this.applyOrFindStop(tx, projector, batch);
        if (!stopped) {
          moved.push(projector.name);
          applied.push([projector.name, batch.length]);
          continue;
        }
        const { index, stop } = stopped;
        if (options.onStop === 'throw') throw new ProjectorFailedError(projector.name, stop);
        const before = index === 0 ? position : (batch[index - 1] as PositionedEvent).position;
        await this.checkpoints.advance(tx, [projector.name], before);
        await this.checkpoints.recordFailure(tx, projector.name, stop);
        applied.push([projector.name, index]);
        options.stops.push([projector.name, stop]);
      }
      if (moved.length > 0) await this.checkpoints.advance(tx, moved, last.position);
      read += batch.length;
    }
    return read;
  }

  /**
   * Applies the batch; when the projector cannot, applies its events one by one to find the
   * first it cannot apply, keeping those before it. An event this code cannot decode (a type
   * or schema version it does not know) is one it cannot apply: the projector stops before it
   * rather than skip it. A transient database error is not the event's fault: it ends the
   * whole transaction, to be run again.
   */
  private async applyOrFindStop(
    tx: Transaction,
    projector: Projector,
    batch: PositionedEvent[],
  ): Promise<{ index: number; stop: Stop } | null> {
    const whole = await underSavepoint(tx, () =>
      projector.apply(
        tx,
        batch.map(({ event }) => decodeEvent(event)),
        batch.map(({ position }) => position),
      ),
    );
    if (!whole) return null;
    for (const [index, { event, position }] of batch.entries()) {
      const failed = await underSavepoint(tx, () =>
        projector.apply(tx, [decodeEvent(event)], [position]),
      );
      if (failed) {
        const error = failed.error instanceof Error ? failed.error.message : String(failed.error);
        return {
          index,
          stop: { eventSeq: event.seq, eventType: event.type, streamId: event.streamId, error },
        };
      }
    }
    return null;
  }
}

/**
 * Runs `work` under a savepoint: undone and answered when it fails on its merits, so the rest of
 * the transaction stands (PostgreSQL refuses every later statement of a transaction after an
 * error unless it rolls back to a savepoint).
 */
async function underSavepoint(
  tx: Transaction,
  work: () => Promise<void>,
): Promise<{ error: unknown } | null> {
  await tx.query('SAVEPOINT projector_apply');
  try {
    await work();
  } catch (error) {
    if (isTransientDatabaseError(error)) throw error;
    await tx.query('ROLLBACK TO SAVEPOINT projector_apply');
    await tx.query('RELEASE SAVEPOINT projector_apply');
    return { error };
  }
  await tx.query('RELEASE SAVEPOINT projector_apply');
  return null;
}
