import { decodeEvent, type DecodedEvent, type RecordedEvent } from '#app/domain';
import type { EventStore, Transaction } from '#app/persistence';
import type { LogView, Reads } from './record-decisions.js';

/** A read's events, or why they cannot be decoded (that read fails, not the others). */
type Read = DecodedEvent[] | Error;

/**
 * What a chunk's records read of the log: every stream and prefix they name, read in one query
 * per kind before any decision, then kept up to date with what the chunk appends, so that a
 * company and its page in one chunk both land without reading again.
 */
export class ChunkLog implements LogView {
  private readonly appended = new Set<DecodedEvent>();

  private constructor(
    private readonly streams: Map<string, Read>,
    private readonly starts: Map<string, Read>,
  ) {}

  /** Reads what the records' decisions read (`readsOf` of each). */
  static async read(
    eventStore: EventStore,
    tx: Transaction,
    reads: readonly Reads[],
  ): Promise<ChunkLog> {
    const streamIds = new Set(reads.flatMap((read) => read.streams));
    const prefixes = new Set(reads.flatMap((read) => read.prefixes));
    const foundStreams = await eventStore.readStreams(tx, [...streamIds]);
    const foundStarts =
      prefixes.size > 0
        ? await eventStore.readStreamStartsWithPrefixes(tx, [...prefixes])
        : new Map<string, RecordedEvent[]>();
    return new ChunkLog(
      new Map([...streamIds].map((id) => [id, decoded(foundStreams.get(id))])),
      new Map([...prefixes].map((prefix) => [prefix, decoded(foundStarts.get(prefix))])),
    );
  }

  stream(streamId: string): DecodedEvent[] {
    return answer(this.streams, streamId);
  }

  streamStarts(prefix: string): DecodedEvent[] {
    return answer(this.starts, prefix);
  }

  before(event: DecodedEvent): boolean {
    return !this.appended.has(event);
  }

  /** Events the chunk appended, as the log now holds them (their seq and time included). */
  add(recorded: readonly RecordedEvent[]): void {
    for (const event of recorded) {
      const decodedEvent = decodeEvent(event);
      this.appended.add(decodedEvent);
      const stream = this.streams.get(event.streamId);
      if (Array.isArray(stream)) stream.push(decodedEvent);
      if (event.streamVersion !== 1) continue;
      for (const [prefix, starts] of this.starts) {
        if (!Array.isArray(starts) || !event.streamId.startsWith(prefix)) continue;
        starts.push(decodedEvent);
        starts.sort((a, b) => (a.streamId < b.streamId ? -1 : a.streamId > b.streamId ? 1 : 0));
      }
    }
  }
}

function decoded(events: RecordedEvent[] = []): Read {
  try {
    return events.map((event) => decodeEvent(event));
  } catch (error) {
    return error as Error;
  }
}

function answer(reads: Map<string, Read>, key: string): DecodedEvent[] {
  const found = reads.get(key);
  // A decision reads only what readsOf names: anything else is a bug of this code.
  if (found === undefined) throw new Error(`${key} was not read for this chunk`);
  if (found instanceof Error) throw found;
  return found;
}
