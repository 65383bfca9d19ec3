import type { TrackingStatusCode } from '../../statuses';

/**
 * Ship24's `statusMilestone` (always present, on the shipment and on every event; 8 values,
 * official OpenAPI spec and docs.ship24.com/status) mapped to our 12 tracking statuses.
 */
export const SHIP24_MILESTONE_STATUSES: Readonly<Record<string, TrackingStatusCode>> = {
  pending: 'no_info',
  info_received: 'pre_transit',
  in_transit: 'in_transit',
  out_for_delivery: 'delivery_in_progress',
  failed_attempt: 'unsuccessful_delivery',
  available_for_pickup: 'available_for_pickup',
  delivered: 'delivered',
  exception: 'error',
};

/**
 * `statusCode` values (finer, may be null) that say more than their milestone. Ship24 documents
 * the field but not the full code list: these names are UNCONFIRMED, one row each. Codes not
 * listed follow their milestone (confirmed examples: delivery_delivered, delivery_out_for_delivery,
 * data_order_created agree with theirs).
 */
export const SHIP24_STATUS_CODE_STATUSES: Readonly<Record<string, TrackingStatusCode>> = {
  data_order_cancelled: 'cancelled',
  delivery_back_to_sender: 'return_to_sender',
  exception_return_to_sender: 'return_to_sender',
};

/** A milestone Ship24 has not documented: an event we cannot classify is movement. */
export const SHIP24_UNKNOWN_STATUS: TrackingStatusCode = 'in_transit';

export interface MappedShip24Status {
  readonly status: TrackingStatusCode;
  /** "milestone/statusCode" (or the milestone alone), as Ship24 worded it. */
  readonly rawStatus: string | null;
}

export function mapShip24Status(milestone: unknown, statusCode: unknown): MappedShip24Status {
  const m = typeof milestone === 'string' && milestone !== '' ? milestone : null;
  const c = typeof statusCode === 'string' && statusCode !== '' ? statusCode : null;
  const status =
    row(SHIP24_STATUS_CODE_STATUSES, c) ??
    row(SHIP24_MILESTONE_STATUSES, m) ??
    SHIP24_UNKNOWN_STATUS;
  return { status, rawStatus: m !== null && c !== null ? `${m}/${c}` : (m ?? c) };
}

/** Own rows only: a payload saying "constructor" must not find Object.prototype's. */
function row<T>(table: Readonly<Record<string, T>>, key: string | null): T | undefined {
  return key !== null && Object.hasOwn(table, key) ? table[key] : undefined;
}
