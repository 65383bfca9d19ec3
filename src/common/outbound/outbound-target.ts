import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { bareHost, isLocalName, isPrivateAddress } from './address-policy';

export interface ResolvedAddress {
  address: string;
  family: number;
}

export type HostLookup = (host: string) => Promise<ResolvedAddress[]>;

/** Every address a host name resolves to (the system resolver, as connections use). */
export const systemLookup: HostLookup = (host) => lookup(host, { all: true, verbatim: true });

/** What a refusal says wherever a tenant may read it (never which address a name has). */
export const OUTBOUND_REFUSED_MESSAGE = 'refused: not a public address';

/**
 * The host (or one of its addresses) is private, loopback or link-local: not to be reached.
 * Its message is OUTBOUND_REFUSED_MESSAGE only: the address an internal name resolves to is
 * the deployment's business, not the tenant's (`address` keeps it for the operator's logs).
 */
export class OutboundRefusedError extends Error {
  override readonly name = 'OutboundRefusedError';
  constructor(
    readonly host: string,
    /** The private address the host is or resolves to. */
    readonly address: string,
  ) {
    super(OUTBOUND_REFUSED_MESSAGE);
  }
}

/** The DNS answer could not be had: an ordinary (retryable) failure. */
export class OutboundLookupError extends Error {
  override readonly name = 'OutboundLookupError';
}

export interface OutboundPolicy {
  /** Host names or addresses that may be reached although private (tests, a local relay). */
  allowedHosts: readonly string[];
  lookup?: HostLookup;
}

function allowed(policy: OutboundPolicy, hostOrAddress: string): boolean {
  return policy.allowedHosts.some((h) => bareHost(h) === bareHost(hostOrAddress));
}

/**
 * Whether `host` is refused before any lookup (a private literal address or a local name);
 * the refusal, or null.
 */
export function literalRefusal(host: string, policy: OutboundPolicy): OutboundRefusedError | null {
  const bare = bareHost(host);
  if (allowed(policy, bare)) return null;
  if (isIP(bare) && isPrivateAddress(bare)) return new OutboundRefusedError(bare, bare);
  // A local name is loopback whatever DNS says: allowed only where loopback is.
  if (!isIP(bare) && isLocalName(bare) && !allowed(policy, '127.0.0.1') && !allowed(policy, '::1'))
    return new OutboundRefusedError(bare, '127.0.0.1');
  return null;
}

/**
 * The one SSRF rule of every outbound connection made on a user's behalf: the host is resolved
 * once, every address it resolves to must be public (address-policy.ts) unless the host or the
 * address is allowed, and the answer is the address to connect to, which the caller pins with
 * pinnedLookup() so a DNS answer that changes between check and connect (rebinding) cannot
 * slip through.
 */
export async function resolveOutboundTarget(
  host: string,
  policy: OutboundPolicy,
): Promise<ResolvedAddress> {
  const bare = bareHost(host);
  const refused = literalRefusal(bare, policy);
  if (refused) throw refused;
  const addresses = isIP(bare)
    ? [{ address: bare, family: isIP(bare) }]
    : await (policy.lookup ?? systemLookup)(bare).catch((error: Error) => {
        throw new OutboundLookupError(`DNS lookup of ${bare} failed: ${error.message}`);
      });
  if (addresses.length === 0)
    throw new OutboundLookupError(`DNS lookup of ${bare} found no address`);
  if (!allowed(policy, bare)) {
    const blocked = addresses.find(
      (a) => isPrivateAddress(a.address) && !allowed(policy, a.address),
    );
    if (blocked) throw new OutboundRefusedError(bare, blocked.address);
  }
  return addresses[0];
}

/** Whether an address already found may be connected to (a probe given an address). */
export function addressAllowed(address: string, policy: OutboundPolicy): boolean {
  return allowed(policy, address) || !isPrivateAddress(address);
}

/** A socket `lookup` that always answers the checked address (DNS pinning). */
export function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [target]);
    } else {
      callback(null, target.address, target.family);
    }
  };
}
