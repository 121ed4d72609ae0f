import type { DecodedEvent } from '#app/domain';
import type { LogPosition, ProjectorName, Transaction } from '#app/persistence';

/** Builds one read model from the log. */
export interface Projector {
  /** The checkpoint's name (one of PROJECTOR_NAMES). */
  readonly name: ProjectorName;
  /**
   * Applies a batch of events in log order, each decoded (a switch over `event.type` names
   * every type, those the read model does not use included). `positions[i]` is where
   * `events[i]` stands in projection order.
   */
  apply(tx: Transaction, events: DecodedEvent[], positions: LogPosition[]): Promise<void>;
  /** Empties the read model, before a rebuild. */
  clear(tx: Transaction): Promise<void>;
}

export const PROJECTORS = Symbol('PROJECTORS');
