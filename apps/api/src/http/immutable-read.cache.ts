import { Injectable } from '@nestjs/common';
import { AppConfig } from '#app/config';
import { LRUCache } from 'lru-cache';
import { etagOf, type KeptAnswer } from './immutable-response.js';

/** What a load makes: the answer's JSON text, and whether it can still change. */
export interface LoadedAnswer {
  json: string;
  /**
   * False for an answer that may still change (a version with no scrape file yet: one may
   * arrive in a moment). It is sent but not kept, and the route must not mark it immutable.
   */
  final: boolean;
}

/**
 * An answer as it is sent: the bytes of its JSON text, the ETag of that text, whether it is
 * final, and, as a KeptAnswer, whether it is past its lifetime or else the key it is kept under.
 * Kept as bytes, a large answer is written to the socket as it is, where a string would be
 * encoded into a fresh buffer at every send (and the collector would chase those buffers).
 */
export interface CachedAnswer extends KeptAnswer {
  body: Buffer;
  final: boolean;
}

/** An answer the lane sends again: its body and its ETag. */
export interface LaneAnswer {
  body: Buffer;
  etag: string;
}

/** The lane's entry for an answer remember() keeps: the key it is kept under, not a copy. */
interface LaneReference {
  source: string;
}

type Entry = CachedAnswer | LaneAnswer | LaneReference;

/** What an entry holds in memory: a reference holds next to nothing. */
function entrySize(entry: Entry): number {
  if ('source' in entry) return 1;
  return Math.max(1, entry.body.length);
}

/**
 * The bytes of `text` in a memory of their own: a small Buffer.from() is a slice of a shared 8
 * KB slab, which one kept answer would hold whole long after the others were evicted.
 */
function ownBytes(text: string | Buffer): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  if (typeof text === 'string') bytes.write(text);
  else text.copy(bytes);
  return bytes;
}

type Load = () => Promise<CachedAnswer>;

/** Prefix of the lane's entries, apart from remember()'s keys ("files ...", "pricing ..."). */
const SENT = 'sent';

/** For a route that returns a kept answer's bytes: Fastify would call them octet-stream. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Answers that cannot change (the files of a version, the pricing of a version, the diff of two
 * versions), kept in this process as the JSON text they are sent as, with its ETag, so that a
 * repeated read costs no database round trip, no serialization and no hashing. Entries are
 * refreshed after at most READ_CACHE_SECONDS (60 by default), so a scrape that arrives late for a
 * version shows within about that time; the cache is bounded by the size of the answers' JSON
 * (READ_CACHE_MB, 0 turns it off). Concurrent misses of one key share one load. The same
 * budget holds the answers the lane ahead of Nest sends again (sentFor, keepSent): for an
 * answer kept here already, the lane holds only its key. Only this process uses it: nothing another process needs.
 */
@Injectable()
export class ImmutableReadCache {
  private readonly cache: LRUCache<string, Entry, Load> | null;
  private readonly ttlMs: number;

  constructor(config: AppConfig) {
    const { maxBytes, ttlMs } = config.readCache;
    this.cache =
      maxBytes === 0
        ? null
        : new LRUCache<string, Entry, Load>({
            maxSize: maxBytes,
            ttl: ttlMs,
            // An expired answer still answers while its refresh runs in the background: the
            // entries loaded together would otherwise expire together, and every request for
            // them would wait behind one burst of database reads.
            allowStale: true,
            sizeCalculation: entrySize,
            fetchMethod: (_key, _stale, { context }) => context(),
          });
    this.ttlMs = ttlMs;
  }

  /**
   * The answer the lane kept under `laneKey` (see immutable-read-lane.ts), unless it (or the
   * entry it refers to) is past READ_CACHE_SECONDS: then the request goes through its route,
   * which reads it again.
   */
  sentFor(laneKey: string): LaneAnswer | undefined {
    const entry = this.cache?.get(`${SENT} ${laneKey}`, { allowStale: false });
    if (!entry || !('source' in entry)) return entry as LaneAnswer | undefined;
    // Past its lifetime the source is being read again by its route (peek: a get would drop it).
    if (!this.cache || this.cache.getRemainingTTL(entry.source) <= 0) return undefined;
    const source = this.cache.peek(entry.source) as CachedAnswer | undefined;
    return source && { body: source.body, etag: source.etag };
  }

  /**
   * Keeps an answer just sent under `laneKey`: a reference to the entry remember() keeps it
   * under (`kept.key`), which decides its lifetime, or else its bytes for READ_CACHE_SECONDS.
   * One already kept stays as it is.
   */
  keepSent(laneKey: string, sent: string | Buffer, etag: string, kept?: KeptAnswer): void {
    const key = `${SENT} ${laneKey}`;
    if (!this.cache || this.cache.has(key)) return;
    this.cache.set(key, kept?.key ? { source: kept.key } : { body: ownBytes(sent), etag });
  }

  /**
   * The answer cached under `key`, else the one `loadAnswer()` makes, kept if it is final. A
   * failed load is not kept. The route sends the bytes as they are (see JSON_CONTENT_TYPE).
   */
  async remember(key: string, loadAnswer: () => Promise<LoadedAnswer>): Promise<CachedAnswer> {
    const load = async (): Promise<CachedAnswer> => {
      const { json, final } = await loadAnswer();
      const body = ownBytes(json);
      return { body, final, etag: etagOf(body) };
    };
    if (!this.cache) return load();
    // Each entry's lifetime varies by up to a fifth, which spreads the refreshes out.
    const ttl = Math.round(this.ttlMs * (0.8 + 0.2 * Math.random()));
    // Past its lifetime, fetch() answers the kept entry at once and reads it again meanwhile.
    const stale = !this.cache.has(key) && this.cache.peek(key) !== undefined;
    const answer = (await this.cache.fetch(key, { context: load, ttl })) as CachedAnswer;
    if (stale) return { ...answer, stale };
    // No other request can have started a load of the key since it settled (no I/O ran since).
    if (this.cache.peek(key) !== answer) return answer;
    // Concurrent misses shared it; the next request loads again. Only this very entry goes.
    if (!answer.final) this.cache.delete(key);
    return answer.final ? { ...answer, key } : answer;
  }
}
