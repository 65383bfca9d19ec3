import type { TrackingStatusCode } from '../../statuses';

/**
 * USPS tracking events -> our twelve statuses. USPS v3 gives each event a text `eventType`
 * ("Delivered, In/At Mailbox") and a 2-character `eventCode` ("03"); the package a
 * `statusCategory` ("Accepted", "Delivered"). Only the field names and those examples are
 * confirmed; the code list and the wordings below are USPS's public tracking vocabulary,
 * UNCONFIRMED against the v3 API (README.md). Order of reading: code, then wording, then the
 * package's category (newest event only), then in_transit.
 */
export const USPS_EVENT_CODES: Readonly<Record<string, TrackingStatusCode>> = {
  MA: 'pre_transit', // pre-shipment info sent to USPS / label created UNCONFIRMED
  GX: 'cancelled', // shipping label cancelled UNCONFIRMED
  '03': 'in_transit', // accepted / USPS in possession [official example code]
  '10': 'in_transit', // processed through facility UNCONFIRMED
  OF: 'delivery_in_progress', // out for delivery UNCONFIRMED
  '01': 'delivered', // delivered UNCONFIRMED
  '02': 'unsuccessful_delivery', // notice left, delivery attempted UNCONFIRMED
  '16': 'available_for_pickup', // available for pickup UNCONFIRMED
};

/** Wordings of `eventType`, checked in order. */
export const USPS_EVENT_WORDINGS: readonly { pattern: RegExp; status: TrackingStatusCode }[] = [
  { pattern: /\blabel cancel+ed\b/i, status: 'cancelled' },
  {
    pattern: /\bpre-?shipment\b|\blabel created\b|\bawaiting item\b/i,
    status: 'pre_transit',
  },
  { pattern: /\breturn(?:ed)? to sender\b|\bto original sender\b/i, status: 'return_to_sender' },
  { pattern: /\bout for delivery\b/i, status: 'delivery_in_progress' },
  {
    pattern:
      /\bavailable for pick[ -]?up\b|\bready for pick[ -]?up\b|\bheld at (?:the )?post office\b/i,
    status: 'available_for_pickup',
  },
  {
    pattern:
      /\bnotice left\b|\bdelivery attempt|\bundeliverable\b|\baddressee unknown\b|\binsufficient address\b|\brefused\b|\bno access\b|\bno secure location\b|\breceptacle (?:full|blocked)\b|\bbusiness closed\b/i,
    status: 'unsuccessful_delivery',
  },
  { pattern: /\bdelivered\b/i, status: 'delivered' },
];

/** `statusCategory` of the package (describes its newest event). */
export const USPS_STATUS_CATEGORIES: Readonly<Record<string, TrackingStatusCode>> = {
  'pre-shipment': 'pre_transit', // UNCONFIRMED
  accepted: 'in_transit', // [official example]
  'in transit': 'in_transit', // UNCONFIRMED
  'out for delivery': 'delivery_in_progress', // UNCONFIRMED
  delivered: 'delivered', // [3p]
  'available for pickup': 'available_for_pickup', // UNCONFIRMED
  'delivery attempt': 'unsuccessful_delivery', // UNCONFIRMED
  alert: 'unsuccessful_delivery', // UNCONFIRMED
  'return to sender': 'return_to_sender', // UNCONFIRMED
};

export const USPS_UNKNOWN_STATUS: TrackingStatusCode = 'in_transit';

export interface UspsStatusInput {
  readonly eventCode?: string | null;
  readonly eventType?: string | null;
  /** The package's category, given for the newest event only. */
  readonly statusCategory?: string | null;
}

export function uspsStatus(input: UspsStatusInput): TrackingStatusCode {
  const byCode = USPS_EVENT_CODES[(input.eventCode ?? '').trim().toUpperCase()];
  if (byCode) return byCode;
  const wording = USPS_EVENT_WORDINGS.find((w) => w.pattern.test(input.eventType ?? ''));
  if (wording) return wording.status;
  const category = USPS_STATUS_CATEGORIES[(input.statusCategory ?? '').trim().toLowerCase()];
  return category ?? USPS_UNKNOWN_STATUS;
}
