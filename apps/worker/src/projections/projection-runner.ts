import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '#app/config';
import { CheckpointStore, EventStore, START_OF_LOG, TransactionRunner } from '#app/persistence';
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
   * Applies what is visible now; returns how many events were applied, over all projectors.
   * A projector whose checkpoint another process holds is skipped (that process is moving it)
   * unless `wait` is set; `stopping` ends the run between two batches.
   */
  async catchUp(
    onBatch?: (projector: string, applied: number) => void,
    { wait = false, stopping = () => false }: { wait?: boolean; stopping?: () => boolean } = {},
  ): Promise<number> {
    let total = 0;
    for (const projector of this.projectors) {
      // Between batches, so a shutdown does not wait for a long backlog (each batch is whole).
      const step = async () => (stopping() ? 0 : this.step(projector, wait));
      for (let applied = await step(); applied > 0; applied = await step()) {
        total += applied;
        onBatch?.(projector.name, applied);
      }
    }
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
        await this.checkpoints.claim(tx, projector.name, { wait: true });
        await projector.clear(tx);
        await this.checkpoints.advance(tx, projector.name, START_OF_LOG);
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

  private step(projector: Projector, wait: boolean): Promise<number> {
    return this.transactions.run(async (tx) => {
      const position = await this.checkpoints.claim(tx, projector.name, { wait });
      if (!position) return 0;
      const batch = await this.eventStore.readForProjection(
        tx,
        position,
        this.config.projections.batchSize,
      );
      const last = batch.at(-1);
      if (!last) return 0;
      await projector.apply(
        tx,
        batch.map((positioned) => positioned.event),
      );
      await this.checkpoints.advance(tx, projector.name, last.position);
      return batch.length;
    });
  }
}
