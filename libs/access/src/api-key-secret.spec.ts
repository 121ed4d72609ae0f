import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  generateApiKeySecret,
  hashApiKey,
  isWellFormedApiKey,
  secretsEqual,
} from './api-key-secret.js';

describe('generateApiKeySecret', () => {
  it('gives a well-formed key: pi_ and 43 base64url characters (256 bits >= 128)', () => {
    const { key } = generateApiKeySecret();
    expect(key).toMatch(/^pi_[A-Za-z0-9_-]{43}$/);
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(Buffer.from(key.slice(3), 'base64url')).toHaveLength(32);
  });

  it('gives a different key on each of 1,000 draws', () => {
    const keys = new Set(Array.from({ length: 1_000 }, () => generateApiKeySecret().key));
    expect(keys.size).toBe(1_000);
  });

  it('returns the hash of the key, not the key itself', () => {
    const secret = generateApiKeySecret();
    expect(secret.hash).toBe(hashApiKey(secret.key));
    expect(secret.hash).not.toContain(secret.key.slice(3));
  });

  it('shows only a short display prefix of the key', () => {
    const secret = generateApiKeySecret();
    expect(secret.key.startsWith(secret.displayPrefix)).toBe(true);
    expect(secret.displayPrefix.startsWith('pi_')).toBe(true);
    expect(secret.displayPrefix.length).toBeLessThanOrEqual(8);
  });
});

describe('hashApiKey', () => {
  it('is 64 lower-case hex characters, the SHA-256 of the key', () => {
    const key = generateApiKeySecret().key;
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).toBe(createHash('sha256').update(key).digest('hex'));
  });

  it('is stable and differs between keys', () => {
    const [a, b] = [generateApiKeySecret().key, generateApiKeySecret().key];
    expect(hashApiKey(a)).toBe(hashApiKey(a));
    expect(hashApiKey(a)).not.toBe(hashApiKey(b));
  });
});

describe('isWellFormedApiKey', () => {
  const good = `pi_${'A'.repeat(21)}-_${'z9'.repeat(10)}`;

  it('accepts pi_ followed by 43 base64url characters', () => {
    expect(good).toHaveLength(46);
    expect(isWellFormedApiKey(good)).toBe(true);
  });

  it.each([
    ['42 characters after the prefix', `pi_${'a'.repeat(42)}`],
    ['44 characters after the prefix', `pi_${'a'.repeat(44)}`],
    ['another prefix', `pk_${'a'.repeat(43)}`],
    ['an upper-case prefix', `PI_${'a'.repeat(43)}`],
    ['no prefix', 'a'.repeat(46)],
    ['a plus sign (base64, not base64url)', `pi_${'a'.repeat(42)}+`],
    ['a slash', `pi_${'a'.repeat(42)}/`],
    ['padding', `pi_${'a'.repeat(42)}=`],
    ['a trailing newline', `pi_${'a'.repeat(43)}\n`],
    ['a leading space', ` pi_${'a'.repeat(43)}`],
    ['the empty string', ''],
  ])('refuses a key with %s', (_why, key) => {
    expect(isWellFormedApiKey(key)).toBe(false);
  });
});

describe('secretsEqual', () => {
  it('is true for equal secrets', () => {
    const key = generateApiKeySecret().key;
    expect(secretsEqual(key, `${key}`)).toBe(true);
    expect(secretsEqual('admin-token-1234', 'admin-token-1234')).toBe(true);
  });

  it('is false for secrets of the same length that differ', () => {
    expect(secretsEqual('admin-token-1234', 'admin-token-1235')).toBe(false);
  });

  it('is false, without throwing, for secrets of different lengths', () => {
    expect(() => secretsEqual('short', 'a-much-longer-secret')).not.toThrow();
    expect(secretsEqual('short', 'a-much-longer-secret')).toBe(false);
    expect(secretsEqual('admin-token-1234', 'admin-token-12345')).toBe(false);
    expect(secretsEqual('', 'x')).toBe(false);
  });
});
