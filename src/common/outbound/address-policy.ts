import { BlockList, isIP } from 'node:net';

/**
 * Address ranges no outbound connection made for a user (webhooks, theme pages, SMTP servers of
 * credentials, custom-domain probes) may reach (SSRF): unspecified, loopback, private, carrier-grade
 * NAT, link-local (cloud metadata at 169.254.169.254), benchmarking, documentation, multicast and
 * reserved ranges, IPv6 unique-local and link-local, and the IPv6 forms that embed IPv4 (mapped
 * ones are judged by the IPv4 address they carry; the deprecated IPv4-compatible `::/96`, which
 * some stacks still route to the IPv4 address, is refused whole, `::` and `::1` included).
 */
const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv6');
}

/** True for addresses in a blocked range; anything that is not an IP address counts as blocked. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return BLOCKED.check(bare, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^(?:0{0,4}:){0,4}:?(?:0{0,4}:)?ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return isPrivateAddress(mapped[1]);
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(bare);
  if (hexMapped) {
    const hi = parseInt(hexMapped[1], 16);
    const lo = parseInt(hexMapped[2], 16);
    return isPrivateAddress(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  return BLOCKED.check(bare, 'ipv6');
}

/** A host name or address as URLs give it (`[::1]` -> `::1`), lower case. */
export function bareHost(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

/** `localhost` and its subdomains (RFC 6761): loopback whatever DNS says. */
export function isLocalName(host: string): boolean {
  const bare = bareHost(host);
  return bare === 'localhost' || bare.endsWith('.localhost');
}
