import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { isPublicAddress, publicOnlyLookup, type AllAddressesLookup } from './public-address.js';

describe('isPublicAddress', () => {
  it.each([
    ['93.184.215.14', 'public IPv4'],
    ['8.8.8.8', 'public IPv4'],
    ['2606:4700:4700::1111', 'global unicast IPv6'],
    ['2a00:1450:4001:82b::200e', 'global unicast IPv6'],
    ['::ffff:93.184.215.14', 'IPv4-mapped, of a public address'],
    ['::ffff:5db8:d70e', 'the same, as URL parsing writes it'],
    ['64:ff9b::93.184.215.14', 'well-known NAT64 (DNS64), of a public address'],
    ['64:ff9b::5db8:d70e', 'the same, as URL parsing writes it'],
  ])('takes %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  // IANA's IPv4 special-purpose registry, with multicast and the reserved 240/4, by the names
  // ipaddr.js gives them.
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified ("this network", 0/8)'],
    ['10.0.0.7', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.254', 'carrierGradeNat'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'linkLocal (cloud metadata)'],
    ['192.0.0.9', 'reserved (IETF protocol assignments)'],
    ['192.0.0.170', 'reserved (NAT64 discovery)'],
    ['192.0.2.1', 'reserved (TEST-NET-1)'],
    ['192.88.99.1', 'reserved (6to4 relay anycast)'],
    ['198.18.0.1', 'reserved (benchmarking)'],
    ['198.51.100.1', 'reserved (TEST-NET-2)'],
    ['203.0.113.1', 'reserved (TEST-NET-3)'],
    ['240.0.0.1', 'reserved (240/4)'],
    ['192.31.196.1', 'as112'],
    ['192.175.48.1', 'as112'],
    ['192.52.193.1', 'amt'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
  ])('refuses %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  // IANA's IPv6 special-purpose registry and everything outside global unicast (2000::/3).
  it.each([
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'linkLocal'],
    ['fec0::1', 'deprecated site-local'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['100::1', 'discard (100::/64)'],
    ['100:0:0:1::1', 'dummy prefix (100:0:0:1::/64)'],
    ['2001:db8::1', 'reserved (documentation)'],
    ['3fff::1', 'reserved (documentation, 3fff::/20)'],
    ['2001:1::1', 'reserved (IETF protocol assignments)'],
    ['2001:2::1', 'benchmarking'],
    ['2001:3::1', 'amt'],
    ['2001:4:112::1', 'as112v6'],
    ['2620:4f:8000::1', 'as112v6'],
    ['2001:10::1', 'deprecated ORCHID'],
    ['2001:20::1', 'orchid2'],
    ['2001:30::1', 'droneRemoteIdProtocolEntityTags'],
    ['5f00::1', 'segmentRouting'],
    ['1::1', 'outside global unicast (::/8 and beyond)'],
    ['4000::1', 'outside global unicast'],
  ])('refuses %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  // Every IPv6 form that embeds an IPv4 address.
  it.each([
    ['::127.0.0.1', 'IPv4-compatible (::/96), loopback'],
    ['::7f00:1', 'the same, as URL parsing writes it'],
    ['::169.254.169.254', 'IPv4-compatible, cloud metadata'],
    ['::10.0.0.1', 'IPv4-compatible, private'],
    ['::93.184.215.14', 'IPv4-compatible, even of a public address'],
    ['::ffff:127.0.0.1', 'IPv4-mapped (::ffff:0:0/96), loopback'],
    ['::ffff:7f00:1', 'the same, as URL parsing writes it'],
    ['0:0:0:0:0:ffff:a9fe:a9fe', 'IPv4-mapped, cloud metadata'],
    ['::ffff:10.0.0.1', 'IPv4-mapped, private'],
    ['::ffff:0:127.0.0.1', 'IPv4-translated (::ffff:0:0:0/96)'],
    ['::ffff:0:93.184.215.14', 'IPv4-translated, even of a public address'],
    ['64:ff9b::127.0.0.1', 'well-known NAT64 (64:ff9b::/96), loopback'],
    ['64:ff9b::a9fe:a9fe', 'well-known NAT64, cloud metadata'],
    ['64:ff9b::10.0.0.1', 'well-known NAT64, private'],
    ['64:ff9b:1::a00:1', 'local-use NAT64 (64:ff9b:1::/48)'],
    ['64:ff9b:1:5db8:d7:e00::', 'local-use NAT64, even of a public address'],
    ['2002:7f00:1::1', '6to4 (2002::/16), loopback'],
    ['2002:a9fe:a9fe::', '6to4, cloud metadata'],
    ['2002:5db8:d70e::1', '6to4, even of a public address'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo (2001::/32)'],
  ])('refuses %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it('refuses what is not an address', () => {
    expect(isPublicAddress('not an address')).toBe(false);
    expect(isPublicAddress('')).toBe(false);
  });
});

describe('publicOnlyLookup', () => {
  /** A DNS that answers every name with `addresses`. */
  const answering =
    (addresses: string[]): AllAddressesLookup =>
    (_hostname, _options, callback) =>
      callback(
        null,
        addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      );

  const lookUp = (addresses: string[], all: boolean) =>
    new Promise<{ error: NodeJS.ErrnoException | null; result: string | LookupAddress[] }>(
      (resolve) =>
        publicOnlyLookup(answering(addresses))('hooks.example.com', { all }, (error, result) =>
          resolve({ error, result }),
        ),
    );

  it('hands the connection public addresses only', async () => {
    expect(await lookUp(['93.184.215.14', '2606:4700:4700::1111'], true)).toEqual({
      error: null,
      result: [
        { address: '93.184.215.14', family: 4 },
        { address: '2606:4700:4700::1111', family: 6 },
      ],
    });
    expect((await lookUp(['93.184.215.14'], false)).result).toBe('93.184.215.14');
  });

  it.each([['::7f00:1'], ['::ffff:a9fe:a9fe'], ['64:ff9b::a00:1'], ['10.0.0.7']])(
    'refuses a name that now resolves to %s beside a public address (DNS rebinding)',
    async (address) => {
      const { error } = await lookUp(['93.184.215.14', address], false);
      expect(error).toMatchObject({
        code: 'EPRIVATEADDRESS',
        message: 'host hooks.example.com must resolve only to public addresses',
      });
    },
  );
});
