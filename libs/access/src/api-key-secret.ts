import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

const KEY_PREFIX = 'pi_';
/** 32 random bytes, base64url: 256 bits. */
const WELL_FORMED_KEY = /^pi_[A-Za-z0-9_-]{43}$/;

interface NewApiKeySecret {
  key: string;
  /** Shown in listings so an operator can tell keys apart; reveals 24 of 256 bits. */
  displayPrefix: string;
  hash: string;
}

export function generateApiKeySecret(): NewApiKeySecret {
  const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { key, displayPrefix: key.slice(0, 7), hash: hashApiKey(key) };
}

/** SHA-256 suffices: the key is 256 random bits, so there is nothing to brute-force. */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** Checked before any lookup, so a malformed key costs no database read. */
export function isWellFormedApiKey(key: string): boolean {
  return WELL_FORMED_KEY.test(key);
}

/** Equal-time comparison of two secrets of any length (both are hashed to a fixed length). */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(hash('sha256', a, 'buffer'), hash('sha256', b, 'buffer'));
}
