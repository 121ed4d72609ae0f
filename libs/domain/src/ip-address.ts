import { isIP } from 'node:net';
import ipaddr, { type IPv4, type IPv6 } from 'ipaddr.js';

/**
 * An IP address as Node writes it, or null. ipaddr.js alone would read `::a.b.c.d`
 * (IPv4-compatible) as `::ffff:a.b.c.d` (IPv4-mapped), so an IPv6 address goes through the URL
 * parser's spelling first, which has hexadecimal groups only. A zone id (`%eth0`, link-local
 * only) is refused.
 */
export function parseIpAddress(address: string): IPv4 | IPv6 | null {
  switch (isIP(address)) {
    case 4:
      return ipaddr.IPv4.parse(address);
    case 6:
      if (address.includes('%')) return null;
      return ipaddr.IPv6.parse(new URL(`http://[${address}]/`).hostname.slice(1, -1));
    default:
      return null;
  }
}
