import { describe, expect, it } from 'vitest';
import { authFailureBucket } from './auth-failure-bucket.js';

describe('authFailureBucket', () => {
  it('counts an IPv6 address by its /64, however it is written', () => {
    const bucket = '2001:db8:1:2::/64';
    for (const address of [
      '2001:db8:1:2::1',
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:db8:1:2:a1b2:c3d4:e5f6:789',
      '2001:0DB8:0001:0002:0000:0000:0000:0001',
      '2001:db8:1:2::1%eth0',
    ]) {
      expect(authFailureBucket(address), address).toBe(bucket);
    }
  });

  it('gives each /64 a bucket of its own', () => {
    expect(authFailureBucket('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(authFailureBucket('2001:db8:1:2::1')).not.toBe(authFailureBucket('2001:db8:1:3::1'));
    expect(authFailureBucket('::1')).toBe('::/64');
    expect(authFailureBucket('fe80::1%eth0')).toBe('fe80::/64');
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address, and IPv4 per address', () => {
    expect(authFailureBucket('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(authFailureBucket('::ffff:c633:6407')).toBe('198.51.100.7');
    expect(authFailureBucket('198.51.100.7')).toBe('198.51.100.7');
    expect(authFailureBucket('198.51.100.8')).toBe('198.51.100.8');
  });

  it('counts an IPv4-compatible address (::a.b.c.d, deprecated) by its /64, not as IPv4', () => {
    expect(authFailureBucket('::198.51.100.7')).toBe('::/64');
  });

  it('keeps what is no IP address as it came', () => {
    expect(authFailureBucket('unknown')).toBe('unknown');
    expect(authFailureBucket('')).toBe('');
  });
});
