import type { TrackingStatusCode } from '../../statuses';

/** UTAPI `statusCode` enum [official spec] -> our statuses. */
export const DHL_STATUS_CODES: Readonly<Record<string, TrackingStatusCode>> = {
  'pre-transit': 'pre_transit',
  transit: 'in_transit',
  delivered: 'delivered',
  failure: 'unsuccessful_delivery',
  unknown: 'no_info',
};

/**
 * UTAPI has no code for "out for delivery", "ready for pickup" or "returned": only the
 * English wording of `status` / `description` says so. These phrases refine `transit` and
 * `failure` events; they are DHL's usual wordings, UNCONFIRMED as a closed list (README.md).
 */
export const DHL_PHRASE_RULES: readonly { pattern: RegExp; status: TrackingStatusCode }[] = [
  {
    pattern: /\breturn(?:ed|ing)? to (?:the )?(?:sender|shipper)\b/i,
    status: 'return_to_sender',
  },
  {
    pattern:
      /\bout for delivery\b|\bwith delivery courier\b|\bloaded onto the delivery vehicle\b|\bbeing delivered\b/i,
    status: 'delivery_in_progress',
  },
  {
    pattern:
      /\b(?:available|ready) for (?:pick[ -]?up|collection)\b|\bawaiting collection\b|\bcan be picked up\b/i,
    status: 'available_for_pickup',
  },
];

/** Codes the phrases may refine (a delivered event stays delivered). */
const REFINABLE = new Set(['transit', 'failure']);

export const DHL_UNKNOWN_STATUS: TrackingStatusCode = 'in_transit';

export interface DhlStatusInput {
  readonly statusCode?: string | null;
  readonly status?: string | null;
  readonly description?: string | null;
  /** The shipment's `returnFlag`: its delivery is a return to the sender (UNCONFIRMED reading). */
  readonly returnFlag?: boolean;
}

export function dhlStatus(input: DhlStatusInput): TrackingStatusCode {
  const code = (input.statusCode ?? '').trim().toLowerCase();
  if (REFINABLE.has(code)) {
    const text = `${input.status ?? ''} ${input.description ?? ''}`;
    const rule = DHL_PHRASE_RULES.find((r) => r.pattern.test(text));
    if (rule) return rule.status;
  }
  const status = DHL_STATUS_CODES[code] ?? DHL_UNKNOWN_STATUS;
  return status === 'delivered' && input.returnFlag ? 'return_to_sender' : status;
}
