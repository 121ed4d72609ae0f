import { Injectable } from '@nestjs/common';
import { AppConfig } from '#app/config';
import { Metrics } from '#app/observability';
import { LRUCache } from 'lru-cache';

/** An answer as the read lane sends it again: its bytes, and its caching headers' values. */
export interface KeptAnswer {
  body: Buffer;
  /** Its ETag and Cache-Control max-age, when it is cacheable over HTTP (http-caching.ts). */
  caching: { etag: string; maxAgeSeconds: number } | null;
}

/**
 * What an entry costs besides its bytes and its key: the LRU's node and the answer's object.
 * Counted so that many tiny answers under long keys cannot hold more than the budget says.
 */
const ENTRY_OVERHEAD_BYTES = 200;

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

/**
 * The answers the read lane (read-lane.ts) sends again, in this process only, under the key the
 * lane makes of what a route reads (its parameters and the stamp of its read models); and, under
 * keys of their own (`companies ids ...`), the ids a companies search matches. Bounded by
 * READ_CACHE_MB, every entry counted whole: its bytes, its key and its overhead (0 turns it
 * off); an entry also goes after READ_CACHE_SECONDS, so a change no checkpoint sees (an
 * operator's SQL) shows within that time. Kept as bytes: a large answer is written to the socket
 * as it is, where a string would be encoded into a fresh buffer at every send.
 */
@Injectable()
export class AnswerCache {
  private readonly cache: LRUCache<string, KeptAnswer> | null;

  constructor(config: AppConfig, metrics: Metrics) {
    const { maxBytes, ttlMs } = config.readCache;
    this.cache =
      maxBytes === 0
        ? null
        : new LRUCache<string, KeptAnswer>({
            maxSize: maxBytes,
            ttl: ttlMs,
            sizeCalculation: (answer, key) =>
              answer.body.length + Buffer.byteLength(key) + ENTRY_OVERHEAD_BYTES,
          });
    metrics.gauge(
      'answer_cache_entries',
      'Answers the read lane keeps (and search ids)',
      [],
      async (gauge) => {
        gauge.set(this.cache?.size ?? 0);
      },
    );
    metrics.gauge(
      'answer_cache_bytes',
      'What the kept answers count against READ_CACHE_MB: bytes, keys and overhead',
      [],
      async (gauge) => {
        gauge.set(this.cache?.calculatedSize ?? 0);
      },
    );
  }

  get(key: string): KeptAnswer | undefined {
    return this.cache?.get(key);
  }

  keep(key: string, body: string | Buffer, caching: KeptAnswer['caching']): KeptAnswer {
    const answer = { body: ownBytes(body), caching };
    this.cache?.set(key, answer);
    return answer;
  }
}
