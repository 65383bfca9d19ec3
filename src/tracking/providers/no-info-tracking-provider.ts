import type { TrackingContext, TrackingProvider, TrackingResult } from './tracking-provider';

/**
 * Fallback for numbers no adapter serves: knows nothing. With no checkpoints the engine reports
 * no_info, counts idle days, and expires the shipment 30 days after creation.
 */
export class NoInfoTrackingProvider implements TrackingProvider {
  readonly name = 'no-info';

  supports(): boolean {
    return true;
  }

  track(
    _trackingNumber: string,
    _carrierCode: string,
    _ctx: TrackingContext,
  ): Promise<TrackingResult> {
    return Promise.resolve({ checkpoints: [], facts: {} });
  }
}
