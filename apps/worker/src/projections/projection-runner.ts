import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '#app/config';
import {
  CheckpointStore,
  EventStore,
  START_OF_LOG,
  TransactionRunner,
  type LogPosition,
} from '#app/persistence';
import { PROJECTORS, type Projector } from './projector.js';

/**
 * Moves projectors along the log. Each step applies one batch and moves the checkpoint in the
 * same transaction, under a lock on that checkpoint: a batch is applied once, by one process,
 * or (on any failure) not at all.
 */
@Injectable()
export class ProjectionRunner {
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
   * Applies what is visible now; returns how many events were read and applied. A projector
   * whose checkpoint another process holds is skipped (that process is moving it) unless
   * `wait` is set; `stopping` ends the run between two batches.
   */
  async catchUp(
    onBatch?: (projector: string, applied: number) => void,
    { wait = false, stopping = () => false }: { wait?: boolean; stopping?: () => boolean } = {},
  ): Promise<number> {
    let total = 0;
    // Between batches, so a shutdown does not wait for a long backlog (each batch is whole).
    const step = async () => (stopping() ? 0 : this.step(wait, onBatch));
    for (let applied = await step(); applied > 0; applied = await step()) total += applied;
    return total;
  }

  /**
   * Empties every read model and replays the whole log into it, returning once every
   * projector has reached the end of the log (on PostgreSQL a transaction still open elsewhere
   * can hold the last events back for a moment).
   */
  async rebuild(onBatch?: (projector: string, applied: number) => void): Promise<number> {
    await this.ensureCheckpoints();
    for (const projector of this.projectors) {
      await this.transactions.run(async (tx) => {
        // Waits for a worker that is applying a batch right now, rather than skipping.
        await this.checkpoints.claim(tx, [projector.name], { wait: true });
        await projector.clear(tx);
        await this.checkpoints.advance(tx, [projector.name], START_OF_LOG);
      });
    }
    let applied = await this.catchUp(onBatch, { wait: true });
    while (await this.anyBehind()) {
      await new Promise((next) => setTimeout(next, this.config.projections.pollMs));
      applied += await this.catchUp(onBatch, { wait: true });
    }
    return applied;
  }

  private async anyBehind(): Promise<boolean> {
    for (const projector of this.projectors) {
      const position = await this.checkpoints.position(projector.name);
      if (await this.eventStore.hasEventsAfter(position)) return true;
    }
    return false;
  }

  /**
   * One batch, in one transaction: projectors standing at the same position (usually all of
   * them) share one read of the log, so the log is read once however many read models it feeds.
   */
  private async step(
    wait: boolean,
    onBatch?: (projector: string, applied: number) => void,
  ): Promise<number> {
    const applied: [projector: string, events: number][] = [];
    const read = await this.transactions.run(async (tx) => {
      const claimed = await this.checkpoints.claim(
        tx,
        this.projectors.map((projector) => projector.name),
        { wait },
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
        const batch = await this.eventStore.readForProjection(
          tx,
          position,
          this.config.projections.batchSize,
        );
        const last = batch.at(-1);
        if (!last) continue;
        const events = batch.map((positioned) => positioned.event);
        const positions = batch.map((positioned) => positioned.position);
        for (const projector of projectors) {
          await projector.apply(tx, events, positions);
          applied.push([projector.name, batch.length]);
        }
        await this.checkpoints.advance(
          tx,
          projectors.map((projector) => projector.name),
          last.position,
        );
        read += batch.length;
      }
      return read;
    });
    for (const [projector, events] of applied) onBatch?.(projector, events);
    return read;
  }
}
