import type { TrackingStatusCode } from '../../statuses';

/**
 * UPS activity statuses -> our twelve statuses. A UPS status has a type letter, a 2-character
 * code ("OT", "FS", ...) and a 3-digit status code (Track API `statusCode`, Track Alert
 * `descriptionCode`). The most specific reading wins: a phrase rule, then the 3-digit code, then
 * the type letter (sources and confidence: README.md).
 */

/** 3-digit codes whose meaning differs from their type letter (or is worth pinning). */
export const UPS_STATUS_CODES: Readonly<Record<string, TrackingStatusCode>> = {
  '003': 'pre_transit', // "Shipment Ready for UPS" (label created), type M [official example]
  '005': 'in_transit', // "On the Way", type I [official example]
  '071': 'in_transit', // "Preparing for Delivery", type I [official example]
  '021': 'delivery_in_progress', // "Out for Delivery", type I [official example]
  '011': 'delivered', // "Delivered", type D [official example]
};

/** Type letters. */
export const UPS_STATUS_TYPES: Readonly<Record<string, TrackingStatusCode>> = {
  M: 'pre_transit', // manifest: label created / billing information received [official]
  MV: 'cancelled', // manifest void [official]
  P: 'in_transit', // pickup [3p]
  I: 'in_transit', // in progress, "On the Way" [official]
  U: 'in_transit', // update, normally a new scheduled delivery date [official]
  O: 'delivery_in_progress', // out for delivery [3p]
  D: 'delivered', // delivery information [official]
  X: 'unsuccessful_delivery', // exception: "something out of the normal happened" [official]
  RS: 'return_to_sender', // returned to shipper UNCONFIRMED
};

/** Phrases (English locale) that say more than the codes; checked first. */
export const UPS_PHRASE_RULES: readonly { pattern: RegExp; status: TrackingStatusCode }[] = [
  { pattern: /\breturn(?:ed|ing)? to (?:the )?(?:sender|shipper)\b/i, status: 'return_to_sender' },
  {
    pattern: /\b(?:awaiting|ready for) (?:customer )?pick[ -]?up\b|\bavailable for pick[ -]?up\b/i,
    status: 'available_for_pickup',
  },
];

/** Status of an unknown type letter: an event of a moving parcel. */
export const UPS_UNKNOWN_STATUS: TrackingStatusCode = 'in_transit';

export interface UpsStatusInput {
  readonly type?: string | null;
  readonly statusCode?: string | null;
  readonly description?: string | null;
}

export function upsStatus(input: UpsStatusInput): TrackingStatusCode {
  const description = input.description ?? '';
  const rule = UPS_PHRASE_RULES.find((r) => r.pattern.test(description));
  if (rule) return rule.status;
  const byCode = input.statusCode ? UPS_STATUS_CODES[input.statusCode] : undefined;
  if (byCode) return byCode;
  const type = (input.type ?? '').toUpperCase();
  return UPS_STATUS_TYPES[type] ?? UPS_UNKNOWN_STATUS;
}

/** The raw status kept on the checkpoint, e.g. "I/OT/021". */
export function upsRawStatus(
  type?: string | null,
  code?: string | null,
  statusCode?: string | null,
) {
  const parts = [type, code, statusCode].map((p) => (p ?? '').trim());
  return parts.some((p) => p !== '') ? parts.join('/') : null;
}
