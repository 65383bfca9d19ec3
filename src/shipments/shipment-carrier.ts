import { findCarrier, resolveCarrier } from '../tracking/carriers';
import type { Violation } from '../common/errors/api-errors';
import { ViolationCodes } from '../common/errors/api-errors';

export type CarrierDecision =
  | { carrier: string | null }
  | { violation: Violation; suggestedCarriers?: Array<{ code: string; name: string }> };

/**
 * Decides a new shipment's `originCarrier`: a given code must be a known
 * carrier (stored in its canonical form); without one, a tracking number
 * with one clear candidate carrier fills it, anything else is refused with
 * the candidates as suggestions so the client can repeat the request with
 * `originCarrier` set. No tracking number, no carrier.
 */
export function decideOriginCarrier(
  trackingNumber: string | null,
  givenCarrier: string | null,
): CarrierDecision {
  if (givenCarrier !== null) {
    const carrier = findCarrier(givenCarrier);
    if (!carrier) {
      return {
        violation: {
          propertyPath: 'originCarrier',
          message: 'This carrier is not known.',
          code: ViolationCodes.choice,
        },
      };
    }
    return { carrier: carrier.code };
  }
  if (trackingNumber === null) return { carrier: null };
  const resolution = resolveCarrier(trackingNumber);
  if ('carrier' in resolution) return { carrier: resolution.carrier.code };
  const suggestedCarriers = resolution.suggestions.map((c) => ({ code: c.code, name: c.name }));
  return {
    violation: {
      propertyPath: 'trackingNumber',
      message:
        suggestedCarriers.length > 0
          ? 'The carrier cannot be identified from the tracking number: several carriers match. Choose one of the suggested carriers and send it as originCarrier.'
          : 'The carrier cannot be identified from the tracking number. Send the carrier code as originCarrier.',
      code: ViolationCodes.invalid,
    },
    suggestedCarriers,
  };
}
