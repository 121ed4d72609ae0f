import { describe, expect, it } from 'vitest';
import { ApiKeyCache, type CheckedKey } from './api-key-cache.js';

const checked = (id: string): CheckedKey => ({
  principal: { id, name: id, plan: 'free', scopes: ['read'] },
  expiresAtMs: null,
});
const now = new Date('2026-11-22T10:00:00.000Z');
const later = (ms: number) => new Date(now.getTime() + ms);

describe('ApiKeyCache', () => {
  it('keeps a key for its time to live, then forgets it', () => {
    const cache = new ApiKeyCache(30_000);
    cache.set('hash-of-a', checked('a'), now, cache.generation);
    expect(cache.get('hash-of-a', later(29_999))?.principal.id).toBe('a');
    expect(cache.get('hash-of-a', later(30_000))).toBeUndefined();
  });

  it('keeps nothing with a time to live of 0', () => {
    const cache = new ApiKeyCache(0);
    cache.set('hash-of-a', checked('a'), now, cache.generation);
    expect(cache.get('hash-of-a', now)).toBeUndefined();
  });

  it('forgets a key by id, and every key on clear', () => {
    const cache = new ApiKeyCache(30_000);
    cache.set('hash-of-a', checked('a'), now, cache.generation);
    cache.set('hash-of-b', checked('b'), now, cache.generation);
    cache.forget('a');
    expect(cache.get('hash-of-a', now)).toBeUndefined();
    expect(cache.get('hash-of-b', now)?.principal.id).toBe('b');
    cache.clear();
    expect(cache.get('hash-of-b', now)).toBeUndefined();
  });

  it('does not keep a lookup that began before a key was dropped (a revocation raced it)', () => {
    const cache = new ApiKeyCache(30_000);
    const lookupBegan = cache.generation;
    cache.forget('a');
    cache.set('hash-of-a', checked('a'), now, lookupBegan);
    expect(cache.get('hash-of-a', now)).toBeUndefined();
    const afterClear = cache.generation;
    cache.set('hash-of-a', checked('a'), now, afterClear);
    expect(cache.get('hash-of-a', now)?.principal.id).toBe('a');
  });
});
