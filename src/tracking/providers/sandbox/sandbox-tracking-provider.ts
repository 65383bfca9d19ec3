import type { TrackingContext, TrackingProvider, TrackingResult } from '../tracking-provider';
import { buildSandboxJourney } from './sandbox-journey';
import { parseSandboxNumber, SANDBOX_CARRIER_CODE, sandboxExpectedStatus } from './sandbox-numbers';

/**
 * Answers the test carrier `tm-test`. Numbers shaped `TM<3 digits><anything>TM` (any case) get a
 * deterministic, realistic journey whose outcome the prefix selects (SANDBOX_PREFIX_STATUSES);
 * any other tm-test number is unknown to the carrier (no checkpoints: no_info).
 */
export class SandboxTrackingProvider implements TrackingProvider {
  readonly name = 'sandbox';

  supports(carrierCode: string, _trackingNumber: string): boolean {
    return carrierCode.trim().toLowerCase() === SANDBOX_CARRIER_CODE;
  }

  track(
    trackingNumber: string,
    _carrierCode: string,
    ctx: TrackingContext,
  ): Promise<TrackingResult> {
    const number = parseSandboxNumber(trackingNumber);
    if (number === null) return Promise.resolve({ checkpoints: [], facts: {} });
    const base = ctx.createdAt ?? ctx.now;
    return Promise.resolve(
      buildSandboxJourney(number, sandboxExpectedStatus(trackingNumber), base),
    );
  }
}
