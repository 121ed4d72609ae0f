import type { ApiKeyPrincipal } from './api-key.js';

/** A key found valid: whom it identifies (worked out once), and when it expires. */
export interface CheckedKey {
  principal: ApiKeyPrincipal;
  /** Milliseconds since the epoch; null for a key that never expires. */
  expiresAtMs: number | null;
}

/**
 * Keys a process has looked up, by hash, for a short time: a request then needs no database
 * read. Only keys that were valid are kept, so the cache is no bigger than the key table.
 */
export class ApiKeyCache {
  private readonly byHash = new Map<string, { key: CheckedKey; until: number }>();
  private drops = 0;

  constructor(private readonly ttlMs: number) {}

  get(hash: string, now: Date): CheckedKey | undefined {
    const cached = this.byHash.get(hash);
    if (!cached) return undefined;
    if (cached.until > now.getTime()) return cached.key;
    this.byHash.delete(hash);
    return undefined;
  }

  /** Taken before a database lookup and given back to `set`. */
  get generation(): number {
    return this.drops;
  }

  /**
   * Keeps a looked-up key, unless a key was dropped since the lookup began: the row may have
   * been read before a revocation whose announcement has already come and gone.
   */
  set(hash: string, key: CheckedKey, now: Date, lookupGeneration: number): void {
    if (this.ttlMs === 0 || lookupGeneration !== this.drops) return;
    this.byHash.set(hash, { key, until: now.getTime() + this.ttlMs });
  }

  forget(id: string): void {
    this.drops += 1;
    for (const [hash, cached] of this.byHash) {
      if (cached.key.principal.id === id) this.byHash.delete(hash);
    }
  }

  clear(): void {
    this.drops += 1;
    this.byHash.clear();
  }
}
