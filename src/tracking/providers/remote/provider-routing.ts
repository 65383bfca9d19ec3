import { TEST_CARRIER_CODE } from '../../carriers';
import type { ProviderAdapter, ProviderCredentials } from './provider-adapter';

/** Key of the instance-wide provider (TRACKING_PROVIDER) where a credentials id goes. */
export const INSTANCE_CREDENTIALS_KEY = 'instance';

/** A tracking credentials record as routing sees it. */
export interface RoutableCredentials {
  readonly credentials: ProviderCredentials;
  readonly adapter: ProviderAdapter;
  /** The `isDefault` parameter. */
  readonly isDefault: boolean;
  /** The `carriers` parameter: carriers routed here whatever the default; empty when unset. */
  readonly carriers: readonly string[];
  readonly createdAt: Date;
}

/**
 * The credentials that track a shipment of a team, or null for the built-in providers (the
 * sandbox for `tm-test` numbers, no_info otherwise). In order:
 * 1. the team's credentials listing the carrier in `carriers` (oldest first);
 * 2. the team's default: `isDefault` ones first, then the ones without a `carriers` list,
 *    oldest first;
 * 3. the instance provider (TRACKING_PROVIDER);
 * each only if its provider can track that carrier (a carrier API tracks its own numbers; an
 * aggregator any, also an unknown carrier). The sandbox carrier is never routed elsewhere.
 */
export function routeShipment(
  carrierCode: string | null,
  team: readonly RoutableCredentials[],
  instance: RoutableCredentials | null,
): RoutableCredentials | null {
  if (!mayRouteRemotely(carrierCode)) return null;
  const oldestFirst = [...team].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  const candidates = [
    ...oldestFirst.filter((c) => carrierCode !== null && c.carriers.includes(carrierCode)),
    ...oldestFirst.filter((c) => c.isDefault),
    ...oldestFirst.filter((c) => !c.isDefault && c.carriers.length === 0),
    ...(instance ? [instance] : []),
  ];
  return candidates.find((c) => canTrack(c.adapter, carrierCode)) ?? null;
}

/** Whether any credentials may track this carrier's numbers: never the sandbox's. */
export function mayRouteRemotely(carrierCode: string | null): boolean {
  return carrierCode !== TEST_CARRIER_CODE;
}

export function canTrack(adapter: ProviderAdapter, carrierCode: string | null): boolean {
  if (adapter.carriers === null) return true;
  return carrierCode !== null && adapter.carriers.includes(carrierCode);
}
