import { parseIpAddress } from '#app/domain';
import ipaddr, { type IPv6 } from 'ipaddr.js';

/** The prefix a network hands one IPv6 host, whose interface identifier fills the rest. */
const HOST_PREFIX_LENGTH = 64;

/**
 * What the failed authentications of a client address count against. An IPv6 host chooses the
 * low 64 bits of its address itself (SLAAC, privacy addresses), so counted per address it could
 * guess from a fresh address each time: it counts by its /64. An IPv4-mapped address (an IPv4
 * client of a dual-stack socket, `::ffff:1.2.3.4`) counts as its IPv4 address, and an IPv4
 * address as itself; anything that is no IP address (what a trusted proxy passed on) as given.
 */
export function authFailureBucket(clientAddress: string): string {
  // A zone id (`fe80::1%eth0`) names an interface of this host, not the client.
  const parsed = parseIpAddress(clientAddress.replace(/%.*$/, ''));
  if (!parsed) return clientAddress;
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const ipv6 = parsed as IPv6;
  if (ipv6.isIPv4MappedAddress()) return ipv6.toIPv4Address().toString();
  const cidr = `${ipv6.toString()}/${HOST_PREFIX_LENGTH}`;
  return `${ipaddr.IPv6.networkAddressFromCIDR(cidr).toString()}/${HOST_PREFIX_LENGTH}`;
}
