import { describe, expect, it } from 'vitest';
import { bearerToken } from './presented-key.js';

const TOKEN = 'admin-token-0123456789abcdef';

describe('bearerToken', () => {
  it('reads "Bearer <token>" in any case and nothing else', () => {
    expect(bearerToken(`Bearer ${TOKEN}`)).toBe(TOKEN);
    expect(bearerToken(`bearer   ${TOKEN} `)).toBe(TOKEN);
    expect(bearerToken(`Basic ${TOKEN}`)).toBeUndefined();
    expect(bearerToken('Bearer two words')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});
