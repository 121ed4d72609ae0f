import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr, { type IPv4, type IPv6 } from 'ipaddr.js';
import { parseIpAddress } from '#app/domain';

/**
 * IANA's global unicast block. Every IPv6 address outside it is special-purpose or unassigned:
 * ::/8 holds the loopback, the IPv4-compatible ::/96 (deprecated by RFC 4291, yet tunnelled to
 * its IPv4 address by some stacks) and NAT64's 64:ff9b::/96 and 64:ff9b:1::/48; 100::/8 the
 * discard prefixes; fc00::/7, fe80::/10, fec0::/10 and ff00::/8 are local or multicast.
 */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/** NAT64's well-known prefix (RFC 6052): a translator sends it on to its last 32 bits. */
const WELL_KNOWN_NAT64 = ipaddr.parseCIDR('64:ff9b::/96');

/**
 * Whether an IP address is on the public internet: an IPv4 address in ipaddr.js's "unicast"
 * range (none of the IANA special-purpose ranges: loopback, private, link-local with the cloud
 * metadata address, carrier-grade NAT, the IETF, documentation, benchmarking, AS112 and AMT
 * blocks, reserved, broadcast, multicast), or an IPv6 one in the global unicast block and in
 * ipaddr.js's "unicast" range there (not 6to4, Teredo, documentation, ORCHID, benchmarking...).
 *
 * Two IPv6 forms that carry an IPv4 address are judged as that address, because it is the one
 * the connection reaches: IPv4-mapped (::ffff:0:0/96, a dual-stack socket's IPv4 peer) and the
 * well-known NAT64 prefix (what DNS64 gives an IPv6-only host for an IPv4-only receiver). The
 * other embedding forms (IPv4-compatible, local-use NAT64, IPv4-translated, 6to4, Teredo) are
 * refused whatever they embed: they reach it through tunnels or translators of someone else's
 * choosing, and no receiver needs them.
 */
export function isPublicAddress(address: string): boolean {
  const parsed = parseIpAddress(address);
  if (!parsed) return false;
  if (parsed.kind() === 'ipv4') return isPublicIPv4(parsed as IPv4);
  const ipv6 = parsed as IPv6;
  const embedded = embeddedIPv4(ipv6);
  if (embedded) return isPublicIPv4(embedded);
  return ipv6.match(GLOBAL_UNICAST) && ipv6.range() === 'unicast';
}

function isPublicIPv4(address: IPv4): boolean {
  return address.range() === 'unicast';
}

/** The IPv4 address an IPv4-mapped or well-known NAT64 address reaches; null for others. */
function embeddedIPv4(address: IPv6): IPv4 | null {
  if (address.range() !== 'ipv4Mapped' && !address.match(WELL_KNOWN_NAT64)) return null;
  return ipaddr.fromByteArray(address.toByteArray().slice(12)) as IPv4;
}

/**
 * The refusals of the public-address rule name the rule and the host as the URL gives it, never
 * an address a name resolved to: an answer that did would let whoever registers URLs read a
 * private network's DNS through it.
 */
export const notPublicAddress = (literal: string) => `host ${literal} must be a public address`;
export const notOnlyPublicAddresses = (hostname: string) =>
  `host ${hostname} must resolve only to public addresses`;

/** A URL's host as an IP address when it is one (without an IPv6 literal's brackets). */
export function ipLiteral(hostname: string): string | null {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) ? bare : null;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** `dns.lookup`'s form, resolving every address of a name. */
export type AllAddressesLookup = (
  hostname: string,
  options: LookupOptions & { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A `lookup` for http.request that refuses a host with any non-public address. The connection
 * then goes to one of the addresses checked here, so a name that resolved to public addresses
 * at registration and resolves to a private one later (DNS rebinding) is caught when it
 * matters. `resolve` is a port so that tests can answer for DNS.
 */
export function publicOnlyLookup(resolve: AllAddressesLookup = lookup) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = addresses.some((entry) => !isPublicAddress(entry.address));
      if (refused || addresses.length === 0) {
        const problem: NodeJS.ErrnoException = new Error(notOnlyPublicAddresses(hostname));
        problem.code = 'EPRIVATEADDRESS';
        return callback(problem, []);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
