import type { Violation } from '../../common/errors/api-errors';
import { findCarrier, trackingUrlFor } from './carrier-catalogue';
import { detectCarriers, normaliseTrackingNumber } from './carrier-detector';
import { resolveFromCandidates } from './carrier-resolver';

/** One carrier a number may belong to, as `GET /tracking_numbers/{n}/detect-carrier` shows it. */
export interface DetectedCarrier {
  code: string;
  name: string;
  /** The number format that matched (e.g. "UPS 1Z", "S10 international"). */
  format: string;
  checksumValidated: boolean;
  /** The carrier's public tracking page for this number, when it has one. */
  trackingUrl: string | null;
}

export interface CarrierDetection {
  /** The number as detection reads it: separators dropped, upper case. */
  trackingNumber: string;
  /**
   * The carrier a new shipment with this number gets as `originCarrier` (the clear winner),
   * null when there is none or several rank first (a POST /shipments would answer 422).
   */
  carrier: string | null;
  /** Every candidate, best first. */
  carriers: DetectedCarrier[];
}

/** As long as a shipment's trackingNumber may be (shipment.entity.ts). */
const MAX_LENGTH = 100;

/** A tracking number detection accepts, or the violation that refuses it. */
export function checkDetectable(raw: string): Violation | null {
  const number = normaliseTrackingNumber(raw);
  if (number.length === 0)
    return { propertyPath: 'trackingNumber', message: 'This value should not be blank.' };
  if (number.length > MAX_LENGTH)
    return {
      propertyPath: 'trackingNumber',
      message: `This value is too long. It should have ${MAX_LENGTH} characters or less.`,
    };
  if (!/^[A-Z0-9]+$/.test(number))
    return { propertyPath: 'trackingNumber', message: 'This value is not valid.' };
  return null;
}

/**
 * Which carriers a tracking number may belong to, by the same detector and rule that set a new
 * shipment's `originCarrier` (what the reference's JavaScript client asks before creating one).
 */
export function detectCarrier(raw: string): CarrierDetection {
  const trackingNumber = normaliseTrackingNumber(raw);
  const candidates = detectCarriers(trackingNumber);
  const resolution = resolveFromCandidates(candidates);
  return {
    trackingNumber,
    carrier: 'carrier' in resolution ? resolution.carrier.code : null,
    carriers: candidates.flatMap((c) => {
      const carrier = findCarrier(c.carrierCode);
      return carrier
        ? [
            {
              code: carrier.code,
              name: carrier.name,
              format: c.formatName,
              checksumValidated: c.checksumValidated,
              trackingUrl: trackingUrlFor(carrier, trackingNumber),
            },
          ]
        : [];
    }),
  };
}
