import type { RecordedEvent } from '../events/domain-event.js';

/**
 * An event in the log that this code cannot read: a type it does not know, or a schema version
 * it has no upcasters from (perhaps written by a newer release). Reading on would skip it.
 */
export class UndecodableEventError extends Error {
  override readonly name = 'UndecodableEventError';

  constructor(
    readonly event: Pick<RecordedEvent, 'seq' | 'type' | 'schemaVersion'>,
    readonly reason: 'unknown-type' | 'unknown-version',
    detail: string,
  ) {
    super(
      `event ${event.seq} (${event.type}, schema version ${event.schemaVersion}) cannot be ` +
        `decoded: ${detail}`,
    );
  }
}
