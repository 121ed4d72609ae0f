import { Injectable } from '@nestjs/common';
import { AppConfig } from '#app/config';
import { LRUCache } from 'lru-cache';

type Load = () => Promise<string>;

/**
 * Answers that cannot change (the files of a version, the pricing of a version), kept in this
 * process as the JSON text they are sent as, so that a repeated read costs no database round
 * trip and no serialization, and the bound is the memory they take. Entries expire after
 * READ_CACHE_SECONDS (5 by default), so a scrape that arrives late for a version shows within that time; the
 * cache is bounded by the size of the answers' JSON (READ_CACHE_MB, 0 turns it off). Concurrent
 * misses of one key share one load. Only this process uses it: nothing another needs.
 */
/** For a route that returns the cache's JSON text: Fastify would call a string text/plain. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

@Injectable()
export class ImmutableReadCache {
  private readonly cache: LRUCache<string, string, Load> | null;

  constructor(config: AppConfig) {
    const { maxBytes, ttlMs } = config.readCache;
    this.cache =
      maxBytes === 0
        ? null
        : new LRUCache<string, string, Load>({
            maxSize: maxBytes,
            ttl: ttlMs,
            sizeCalculation: (json) => Math.max(1, Buffer.byteLength(json)),
            fetchMethod: (_key, _stale, { context }) => context(),
          });
  }

  /**
   * The JSON text cached under `key`, else `loadJson()`'s, kept. A failed load is not kept. The
   * route sends the text as it is (see JSON_CONTENT_TYPE).
   */
  async remember(key: string, loadJson: Load): Promise<string> {
    if (!this.cache) return loadJson();
    return (await this.cache.fetch(key, { context: loadJson })) as string;
  }
}
