import type { RecordedEvent } from '#app/domain';
import type { EventStore, Transaction } from '#app/persistence';

/** How a record's decision reads the log. */
export interface StreamReader {
  readStream(streamId: string): Promise<RecordedEvent[]>;
  /** The first event of every stream whose id starts with `prefix`, by stream id. */
  readStreamStarts(prefix: string): Promise<RecordedEvent[]>;
}

interface Pending {
  promise: Promise<RecordedEvent[]>;
  resolve(events: RecordedEvent[]): void;
  reject(error: unknown): void;
}

/**
 * Reads of many decisions running side by side, gathered into one query per kind: every read
 * asked for before the event loop turns goes out together, so a group of decisions costs a few
 * round trips instead of a few per record.
 */
export class BatchedStreamReader implements StreamReader {
  private streams = new Map<string, Pending>();
  private prefixes = new Map<string, Pending>();
  private scheduled = false;

  constructor(
    private readonly eventStore: EventStore,
    private readonly tx: Transaction,
  ) {}

  readStream(streamId: string): Promise<RecordedEvent[]> {
    return this.request(this.streams, streamId);
  }

  readStreamStarts(prefix: string): Promise<RecordedEvent[]> {
    return this.request(this.prefixes, prefix);
  }

  private request(pending: Map<string, Pending>, key: string): Promise<RecordedEvent[]> {
    let entry = pending.get(key);
    if (!entry) {
      let settle!: Pick<Pending, 'resolve' | 'reject'>;
      const promise = new Promise<RecordedEvent[]>((resolve, reject) => {
        settle = { resolve, reject };
      });
      entry = { promise, ...settle };
      pending.set(key, entry);
    }
    if (!this.scheduled) {
      this.scheduled = true;
      // After the other decisions have run up to their own reads (microtasks come first).
      setImmediate(() => void this.flush());
    }
    return entry.promise;
  }

  private async flush(): Promise<void> {
    const streams = this.streams;
    const prefixes = this.prefixes;
    this.streams = new Map();
    this.prefixes = new Map();
    this.scheduled = false;
    try {
      if (streams.size > 0) {
        const found = await this.eventStore.readStreams(this.tx, [...streams.keys()]);
        for (const [id, entry] of streams) entry.resolve(found.get(id) ?? []);
      }
      if (prefixes.size > 0) {
        const found = await this.eventStore.readStreamStartsWithPrefixes(this.tx, [
          ...prefixes.keys(),
        ]);
        for (const [prefix, entry] of prefixes) entry.resolve(found.get(prefix) ?? []);
      }
    } catch (error) {
      for (const entry of [...streams.values(), ...prefixes.values()]) entry.reject(error);
    }
  }
}
