/** Correlation carried by every event: where the fact came from. */
export interface EventMetadata {
  batch_id: string | null;
  request_id: string | null;
  job_id: string | null;
  content_hash: string;
}

/** An event about to be appended to a stream. */
export interface DomainEvent<P = unknown> {
  readonly type: string;
  /** The version of the payload's shape; older ones are upcast when read (event-registry.ts). */
  readonly schemaVersion: number;
  readonly streamId: string;
  readonly payload: P;
}

/** An event as the log holds it; decodeEvent (event-registry.ts) types its payload. */
export interface RecordedEvent<P = unknown> extends DomainEvent<P> {
  readonly seq: number;
  readonly streamVersion: number;
  readonly metadata: EventMetadata;
  /** ISO 8601. */
  readonly recordedAt: string;
}
