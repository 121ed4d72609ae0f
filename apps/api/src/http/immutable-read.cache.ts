import { Injectable } from '@nestjs/common';
import { AppConfig } from '#app/config';
import { LRUCache } from 'lru-cache';

type Load = () => Promise<object>;

/**
 * Answers that cannot change (the files of a version, the pricing of a version), kept in this
 * process so that a repeated read costs no database round trip. Entries expire after
 * READ_CACHE_SECONDS (5 by default), so a scrape that arrives late for a version shows within that time; the
 * cache is bounded by the size of the answers' JSON (READ_CACHE_MB, 0 turns it off). Concurrent
 * misses of one key share one load. Only this process uses it: nothing another needs.
 */
@Injectable()
export class ImmutableReadCache {
  private readonly cache: LRUCache<string, object, Load> | null;

  constructor(config: AppConfig) {
    const { maxBytes, ttlMs } = config.readCache;
    this.cache =
      maxBytes === 0
        ? null
        : new LRUCache<string, object, Load>({
            maxSize: maxBytes,
            ttl: ttlMs,
            sizeCalculation: (answer) => Math.max(1, JSON.stringify(answer).length),
            fetchMethod: (_key, _stale, { context }) => context(),
          });
  }

  /** The cached answer under `key`, else `load()`'s, kept. A failed load is not kept. */
  async remember<T extends object>(key: string, load: () => Promise<T>): Promise<T> {
    if (!this.cache) return load();
    return (await this.cache.fetch(key, { context: load })) as T;
  }
}
