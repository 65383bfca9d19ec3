import { isIP } from 'node:net';

/**
 * Express's `trust proxy` in the forms worth configuring: every hop (`true`), none (`false`),
 * the last N hops, or the proxies at these addresses, CIDR ranges and named ranges.
 * Functions and the per-request forms are left out: an environment variable cannot hold them.
 */
export type TrustProxy = boolean | number | string[];

/** proxy-addr's named ranges (Express resolves them; the names are case-sensitive there). */
export const TRUST_PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'] as const;

const EXPECTED = `must be true, false, a hop count (0 or more) or a comma-separated list of IP addresses, CIDR ranges, ${TRUST_PROXY_RANGES.join(', ')}`;

/**
 * Parses TRUST_PROXY. Everything it accepts, Express accepts too (checked by its spec), and it
 * refuses up front what Express would only refuse when the app is set up, or worse, take as
 * something else: a string `"1"` given to Express is an address, not a hop count, so the value
 * is converted here.
 */
export function parseTrustProxy(raw: string): { value: TrustProxy } | { error: string } {
  const value = raw.trim();
  if (/^true$/i.test(value)) return { value: true };
  if (/^false$/i.test(value)) return { value: false };
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return Number.isSafeInteger(hops) ? { value: hops } : { error: EXPECTED };
  }
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length === 0) return { error: EXPECTED };
  const out: string[] = [];
  for (const entry of entries) {
    const normalized = trustEntry(entry);
    if (normalized === null) return { error: `${EXPECTED} (not one: ${JSON.stringify(entry)})` };
    out.push(normalized);
  }
  return { value: out };
}

/** A named range (lower-cased), an address, or an address with a prefix or IPv4 netmask; null if none. */
function trustEntry(entry: string): string | null {
  const name = entry.toLowerCase();
  if ((TRUST_PROXY_RANGES as readonly string[]).includes(name)) return name;
  const slash = entry.indexOf('/');
  const address = slash === -1 ? entry : entry.slice(0, slash);
  // Zone ids (fe80::1%eth0) name an interface of this host, never a proxy's address.
  const family = address.includes('%') ? 0 : isIP(address);
  if (family === 0) return null;
  if (slash === -1) return entry;
  const range = entry.slice(slash + 1);
  const max = family === 4 ? 32 : 128;
  // proxy-addr refuses a /0 (it would trust every address: say `true` for that).
  if (/^\d{1,3}$/.test(range)) return +range >= 1 && +range <= max ? entry : null;
  return family === 4 && isNetmask(range) ? entry : null;
}

/** A dotted IPv4 netmask with contiguous ones, not all zero (255.255.0.0). */
function isNetmask(mask: string): boolean {
  if (isIP(mask) !== 4) return false;
  const bits = mask
    .split('.')
    .map((octet) => Number(octet).toString(2).padStart(8, '0'))
    .join('');
  return /^1+0*$/.test(bits);
}
