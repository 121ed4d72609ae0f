import { decodeEvent, type DecodedEvent, type RecordedEvent } from '#app/domain';
import type { EventStore, Transaction } from '#app/persistence';

/** How a record's decision reads the log: events decoded, told apart by type. */
export interface StreamReader {
  readStream(streamId: string): Promise<DecodedEvent[]>;
  /** The first event of every stream whose id starts with `prefix`, by stream id. */
  readStreamStarts(prefix: string): Promise<DecodedEvent[]>;
}

interface Pending {
  promise: Promise<DecodedEvent[]>;
  resolve(events: DecodedEvent[]): void;
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

  readStream(streamId: string): Promise<DecodedEvent[]> {
    return this.request(this.streams, streamId);
  }

  readStreamStarts(prefix: string): Promise<DecodedEvent[]> {
    return this.request(this.prefixes, prefix);
  }

  private request(pending: Map<string, Pending>, key: string): Promise<DecodedEvent[]> {
    let entry = pending.get(key);
    if (!entry) {
      let settle!: Pick<Pending, 'resolve' | 'reject'>;
      const promise = new Promise<DecodedEvent[]>((resolve, reject) => {
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
        for (const [id, entry] of streams) settle(entry, found.get(id));
      }
      if (prefixes.size > 0) {
        const found = await this.eventStore.readStreamStartsWithPrefixes(this.tx, [
          ...prefixes.keys(),
        ]);
        for (const [prefix, entry] of prefixes) settle(entry, found.get(prefix));
      }
    } catch (error) {
      for (const entry of [...streams.values(), ...prefixes.values()]) entry.reject(error);
    }
  }
}

/** Answers a read with its events decoded; an event that cannot be fails that read alone. */
function settle(entry: Pending, events: RecordedEvent[] = []): void {
  let decoded: DecodedEvent[];
  try {
    decoded = events.map((event) => decodeEvent(event));
  } catch (error) {
    entry.reject(error);
    return;
  }
  entry.resolve(decoded);
}
