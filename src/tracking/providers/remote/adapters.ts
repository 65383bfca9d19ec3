import { aftershipAdapter } from '../aftership';
import { dhlAdapter } from '../dhl';
import { easypostAdapter } from '../easypost';
import { fedexAdapter } from '../fedex';
import { seventeenTrackAdapter } from '../seventeen-track';
import { ship24Adapter } from '../ship24';
import { upsAdapter } from '../ups';
import { uspsAdapter } from '../usps';
import type { ProviderAdapter, ProviderType } from './provider-adapter';

/**
 * Every remote provider adapter, by credentials type. One line per provider: its folder under
 * src/tracking/providers/ exports `<name>Adapter`.
 */
export const PROVIDER_ADAPTERS: Readonly<Record<ProviderType, ProviderAdapter>> = {
  '17track': seventeenTrackAdapter,
  aftership: aftershipAdapter,
  ship24: ship24Adapter,
  easypost: easypostAdapter,
  dhl: dhlAdapter,
  ups: upsAdapter,
  fedex: fedexAdapter,
  usps: uspsAdapter,
};

/** The adapter of a credentials type, or undefined when it is not a (built) tracking provider. */
export function adapterFor(type: string): ProviderAdapter | undefined {
  return Object.prototype.hasOwnProperty.call(PROVIDER_ADAPTERS, type)
    ? PROVIDER_ADAPTERS[type as ProviderType]
    : undefined;
}
