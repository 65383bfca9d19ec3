import { NoInfoTrackingProvider } from './no-info-tracking-provider';
import type { TrackingContext, TrackingProvider, TrackingResult } from './tracking-provider';

/**
 * Picks the provider for a shipment: the first registered one that supports its carrier and
 * number, else the fallback (by default the no-info provider). Order of registration is priority.
 */
export class TrackingProviderRegistry {
  private readonly providers: readonly TrackingProvider[];

  constructor(
    providers: Iterable<TrackingProvider>,
    readonly fallback: TrackingProvider = new NoInfoTrackingProvider(),
  ) {
    this.providers = [...providers];
  }

  get names(): string[] {
    return [...this.providers.map((p) => p.name), this.fallback.name];
  }

  providerFor(carrierCode: string | null, trackingNumber: string): TrackingProvider {
    if (carrierCode === null || carrierCode === '') return this.fallback;
    return this.providers.find((p) => p.supports(carrierCode, trackingNumber)) ?? this.fallback;
  }

  track(
    trackingNumber: string,
    carrierCode: string | null,
    ctx: TrackingContext,
  ): Promise<TrackingResult> {
    return this.providerFor(carrierCode, trackingNumber).track(
      trackingNumber,
      carrierCode ?? '',
      ctx,
    );
  }
}
