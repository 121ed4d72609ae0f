import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Whether an IP address is on the public internet. Only ipaddr.js's "unicast" range counts:
 * loopback, private, link-local (cloud metadata), carrier-grade NAT, multicast, reserved and
 * the IPv6 forms that carry an IPv4 address of any kind (6to4, Teredo, NAT64) are all refused.
 * An IPv4-mapped IPv6 address is judged as the IPv4 address it maps.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

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

/**
 * A `lookup` for http.request that refuses a host with any non-public address. Checking the
 * addresses the connection then uses, rather than resolving once beforehand, leaves no gap for
 * a name that resolves to a public address at registration and to a private one later (DNS
 * rebinding).
 */
export function publicOnlyLookup(
  hostname: string,
  options: LookupOptions,
  callback: LookupCallback,
): void {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    if (refused || addresses.length === 0) {
      const problem: NodeJS.ErrnoException = new Error(
        `${hostname} resolves to a non-public address`,
      );
      problem.code = 'EPRIVATEADDRESS';
      return callback(problem, []);
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}
