import type { TrackingStatusCode } from '../../statuses';

/**
 * AfterShip's delivery statuses (`tag`, 9 values, the same on a tracking and on each of its
 * checkpoints) and sub-statuses (`subtag`), each mapped to one of our 12 tracking statuses.
 * Sources: AfterShip docs "Delivery Statuses" / "Delivery Sub-statuses" (2025-01) and the
 * official SDK's Tag enum (see ../../../../../shared notes, carrier-apis.md section 2).
 *
 * A sub-status row wins over its status row; a sub-status we do not know falls back to its
 * status (AfterShip adds sub-statuses over time, e.g. Exception_016..018 in 2026-03).
 */
export const AFTERSHIP_TAG_STATUSES: Readonly<Record<string, TrackingStatusCode>> = {
  Pending: 'no_info',
  InfoReceived: 'pre_transit',
  InTransit: 'in_transit',
  OutForDelivery: 'delivery_in_progress',
  AttemptFail: 'unsuccessful_delivery',
  Delivered: 'delivered',
  AvailableForPickup: 'available_for_pickup',
  // Generic exceptions are errors; the sub-status rows below refine the ones that are not.
  Exception: 'error',
  // "No tracking information for 30 days since added".
  Expired: 'expired',
};

export const AFTERSHIP_SUBTAG_STATUSES: Readonly<Record<string, TrackingStatusCode>> = {
  Pending_001: 'no_info',
  Pending_002: 'no_info',
  Pending_003: 'no_info',
  Pending_004: 'no_info',
  Pending_005: 'no_info',
  Pending_006: 'no_info',
  InfoReceived_001: 'pre_transit',
  InTransit_001: 'in_transit',
  InTransit_002: 'in_transit', // acceptance scan
  InTransit_003: 'in_transit', // arrival scan
  InTransit_004: 'in_transit', // arrived at the destination country
  InTransit_005: 'in_transit', // customs clearance completed
  InTransit_006: 'in_transit', // customs clearance started
  InTransit_007: 'in_transit', // departure scan
  InTransit_008: 'in_transit', // problem resolved
  InTransit_009: 'in_transit', // forwarded to a different address
  OutForDelivery_001: 'delivery_in_progress',
  OutForDelivery_002: 'delivery_in_progress', // older docs only
  OutForDelivery_003: 'delivery_in_progress', // customer contacted
  OutForDelivery_004: 'delivery_in_progress', // delivery appointment scheduled
  AttemptFail_001: 'unsuccessful_delivery',
  AttemptFail_002: 'unsuccessful_delivery', // addressee not available
  AttemptFail_003: 'unsuccessful_delivery', // business closed
  Delivered_001: 'delivered',
  Delivered_002: 'delivered', // picked up by the customer
  Delivered_003: 'delivered', // signed by the customer
  Delivered_004: 'delivered', // delivered, cash on delivery collected
  Delivered_005: 'delivered', // delivered to a neighbour (2026-07 docs)
  AvailableForPickup_001: 'available_for_pickup',
  Exception_001: 'error', // exception
  Exception_002: 'unsuccessful_delivery', // customer moved
  Exception_003: 'unsuccessful_delivery', // customer refused delivery
  Exception_004: 'in_transit', // delayed (customs clearance): still on its way
  Exception_005: 'in_transit', // delayed (external factors)
  Exception_006: 'in_transit', // held for payment
  Exception_007: 'unsuccessful_delivery', // incorrect address
  Exception_008: 'unsuccessful_delivery', // pick-up missed
  Exception_009: 'error', // rejected by carrier
  Exception_010: 'return_to_sender', // returning to sender
  Exception_011: 'return_to_sender', // returned to sender
  Exception_012: 'error', // damaged
  Exception_013: 'error', // lost
  Exception_016: 'in_transit', // delayed (processing issue), from 2026-03
  Exception_017: 'in_transit', // delayed (extreme weather), from 2026-03
  Exception_018: 'in_transit', // incorrect / missing documents (on hold), from 2026-03
  Expired_001: 'expired',
};

/** A status word AfterShip has not documented: an event we cannot classify is movement. */
export const AFTERSHIP_UNKNOWN_STATUS: TrackingStatusCode = 'in_transit';

export interface MappedAfterShipStatus {
  readonly status: TrackingStatusCode;
  /** "Tag/Subtag" (or just the tag), kept on the checkpoint as the provider's own words. */
  readonly rawStatus: string | null;
}

export function mapAfterShipStatus(tag: unknown, subtag: unknown): MappedAfterShipStatus {
  const t = typeof tag === 'string' && tag !== '' ? tag : null;
  const s = typeof subtag === 'string' && subtag !== '' ? subtag : null;
  const status =
    row(AFTERSHIP_SUBTAG_STATUSES, s) ??
    row(AFTERSHIP_TAG_STATUSES, t) ??
    // A sub-status names its status before the underscore (Exception_014 -> Exception).
    row(AFTERSHIP_TAG_STATUSES, s?.split('_')[0] ?? null) ??
    AFTERSHIP_UNKNOWN_STATUS;
  const rawStatus = t !== null && s !== null ? `${t}/${s}` : (t ?? s);
  return { status, rawStatus };
}

/** Own rows only: a payload saying "constructor" must not find Object.prototype's. */
function row<T>(table: Readonly<Record<string, T>>, key: string | null): T | undefined {
  return key !== null && Object.hasOwn(table, key) ? table[key] : undefined;
}
