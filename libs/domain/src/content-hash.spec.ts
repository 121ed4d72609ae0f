import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, contentHash, sha256Hex } from './content-hash.js';

describe('canonicalJson', () => {
  it('sorts the keys of the top-level object', () => {
    expect(canonicalJson({ b: 1, a: 2, c: 3 })).toBe('{"a":2,"b":1,"c":3}');
  });

  it('sorts keys at every depth, including objects inside arrays', () => {
    const value = { z: { y: 1, x: { d: 1, c: 2 } }, a: [{ n: 1, m: 2 }] };
    expect(canonicalJson(value)).toBe('{"a":[{"m":2,"n":1}],"z":{"x":{"c":2,"d":1},"y":1}}');
  });

  it('keeps the order of array elements', () => {
    expect(canonicalJson([3, 1, 2])).toBe('[3,1,2]');
    expect(canonicalJson({ list: ['b', 'a'] })).toBe('{"list":["b","a"]}');
  });

  it('keeps null and primitive values as JSON writes them', () => {
    expect(canonicalJson({ b: null, a: 'x', c: true, d: 1.5 })).toBe(
      '{"a":"x","b":null,"c":true,"d":1.5}',
    );
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson('text')).toBe('"text"');
  });
});

describe('sha256Hex', () => {
  it('is the lower-case hex SHA-256 of the text', () => {
    expect(sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});

describe('contentHash', () => {
  it('is the SHA-256 of the canonical JSON', () => {
    const value = { b: [1, { d: 2, c: 3 }], a: 'x' };
    expect(contentHash(value)).toBe(
      createHash('sha256').update(canonicalJson(value)).digest('hex'),
    );
    expect(contentHash(value)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is equal for the same content with keys in another order, at any depth', () => {
    const one = { type: 'company', slug: 'notion.so', nested: { a: 1, b: [1, 2] } };
    const two = { nested: { b: [1, 2], a: 1 }, slug: 'notion.so', type: 'company' };
    expect(contentHash(one)).toBe(contentHash(two));
  });

  it('differs when a value differs', () => {
    expect(contentHash({ a: 1, b: 2 })).not.toBe(contentHash({ a: 1, b: 3 }));
    expect(contentHash({ a: { x: 'y' } })).not.toBe(contentHash({ a: { x: 'z' } }));
  });

  it('differs when array elements are reordered', () => {
    expect(contentHash({ a: [1, 2] })).not.toBe(contentHash({ a: [2, 1] }));
  });

  it('differs between null and a missing field', () => {
    expect(contentHash({ a: 1, b: null })).not.toBe(contentHash({ a: 1 }));
  });
});
