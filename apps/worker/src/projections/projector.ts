import type { RecordedEvent } from '#app/domain';
import type { Transaction } from '#app/persistence';

/** Builds one read model from the log. */
export interface Projector {
  /** The checkpoint's name: never rename a projector, or it replays from the start. */
  readonly name: string;
  /** Applies a batch of events in log order; events of other types are ignored. */
  apply(tx: Transaction, events: RecordedEvent[]): Promise<void>;
  /** Empties the read model, before a rebuild. */
  clear(tx: Transaction): Promise<void>;
}

export const PROJECTORS = Symbol('PROJECTORS');
