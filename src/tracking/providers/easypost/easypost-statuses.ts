import type { TrackingStatusCode } from '../../statuses';

/**
 * EasyPost tracker `status` values (10, official docs "Trackers") mapped to our statuses. The
 * same vocabulary is used on the tracker and on each of its `tracking_details`.
 */
export const EASYPOST_STATUSES: Readonly<Record<string, TrackingStatusCode>> = {
  unknown: 'no_info',
  pre_transit: 'pre_transit',
  in_transit: 'in_transit',
  out_for_delivery: 'delivery_in_progress',
  delivered: 'delivered',
  available_for_pickup: 'available_for_pickup',
  return_to_sender: 'return_to_sender',
  failure: 'unsuccessful_delivery',
  cancelled: 'cancelled',
  error: 'error',
};

/**
 * A `status_detail` that only adds colour (where the parcel is, why it waits): the checkpoint
 * keeps its `status` row. Only details that decide the outcome override the status.
 */
export const FOLLOWS_STATUS = 'follows-status';

/**
 * Every `status_detail` we know, each with our status or FOLLOWS_STATUS. EasyPost's docs list
 * the field but the list we saw was cut off: rows beyond the documented examples
 * (address_correction, arrived_at_destination, arrived_at_facility, status_update) are
 * UNCONFIRMED, one row each. A detail not listed follows its status.
 */
export const EASYPOST_STATUS_DETAILS: Readonly<
  Record<string, TrackingStatusCode | typeof FOLLOWS_STATUS>
> = {
  address_correction: FOLLOWS_STATUS,
  arrived_at_destination: FOLLOWS_STATUS,
  arrived_at_facility: FOLLOWS_STATUS,
  arrived_at_pickup_location: 'available_for_pickup',
  awaiting_information: FOLLOWS_STATUS,
  cancelled: 'cancelled',
  damaged: 'error',
  delayed: FOLLOWS_STATUS,
  delivery_exception: FOLLOWS_STATUS,
  departed_facility: FOLLOWS_STATUS,
  departed_origin_facility: FOLLOWS_STATUS,
  expired: 'expired',
  failure: FOLLOWS_STATUS,
  held: FOLLOWS_STATUS,
  in_transit: FOLLOWS_STATUS,
  label_created: 'pre_transit',
  lost: 'error',
  missorted: FOLLOWS_STATUS,
  out_for_delivery: 'delivery_in_progress',
  received_at_destination_facility: FOLLOWS_STATUS,
  received_at_origin_facility: FOLLOWS_STATUS,
  refused: FOLLOWS_STATUS,
  return: 'return_to_sender',
  status_update: FOLLOWS_STATUS,
  transferred_to_destination_carrier: FOLLOWS_STATUS,
  unknown: FOLLOWS_STATUS,
};

/** A status EasyPost has not documented: an event we cannot classify is movement. */
export const EASYPOST_UNKNOWN_STATUS: TrackingStatusCode = 'in_transit';

export interface MappedEasyPostStatus {
  readonly status: TrackingStatusCode;
  /** "status/status_detail" (or the status alone), as EasyPost worded it. */
  readonly rawStatus: string | null;
}

export function mapEasyPostStatus(status: unknown, detail: unknown): MappedEasyPostStatus {
  const s = typeof status === 'string' && status !== '' ? status : null;
  const d = typeof detail === 'string' && detail !== '' ? detail : null;
  const byDetail = row(EASYPOST_STATUS_DETAILS, d);
  const mapped =
    (byDetail !== undefined && byDetail !== FOLLOWS_STATUS ? byDetail : undefined) ??
    row(EASYPOST_STATUSES, s) ??
    EASYPOST_UNKNOWN_STATUS;
  return { status: mapped, rawStatus: s !== null && d !== null ? `${s}/${d}` : (s ?? d) };
}

/** Own rows only: a payload saying "constructor" must not find Object.prototype's. */
function row<T>(table: Readonly<Record<string, T>>, key: string | null): T | undefined {
  return key !== null && Object.hasOwn(table, key) ? table[key] : undefined;
}
