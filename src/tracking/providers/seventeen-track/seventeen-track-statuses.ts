import type { TrackingStatusCode } from '../../statuses';

/**
 * 17TRACK v2.2 sub-statuses (help centre: "9 main tracking statuses and 30 sub-statuses") and
 * the tracking status each maps to. One row per sub-status, so a correction is one line.
 */
export const SEVENTEEN_TRACK_SUB_STATUSES: Readonly<Record<string, TrackingStatusCode>> = {
  NotFound_Other: 'no_info',
  NotFound_InvalidCode: 'error',
  InfoReceived: 'pre_transit',
  InTransit_PickedUp: 'in_transit',
  InTransit_Other: 'in_transit',
  InTransit_Departure: 'in_transit',
  InTransit_Arrival: 'in_transit',
  InTransit_CustomsProcessing: 'in_transit',
  InTransit_CustomsReleased: 'in_transit',
  InTransit_CustomsRequiringInformation: 'in_transit',
  Expired_Other: 'expired',
  AvailableForPickup_Other: 'available_for_pickup',
  OutForDelivery_Other: 'delivery_in_progress',
  DeliveryFailure_Other: 'unsuccessful_delivery',
  DeliveryFailure_NoBody: 'unsuccessful_delivery',
  DeliveryFailure_Security: 'unsuccessful_delivery',
  DeliveryFailure_Rejected: 'unsuccessful_delivery',
  DeliveryFailure_InvalidAddress: 'unsuccessful_delivery',
  Delivered_Other: 'delivered',
  Exception_Other: 'error',
  Exception_Returning: 'return_to_sender',
  Exception_Returned: 'return_to_sender',
  Exception_NoBody: 'error',
  // UNCONFIRMED: the seven remaining Exception sub-status codes are inferred from 17TRACK's
  // Shopify help page labels (Alert - Destroyed/Damaged/Lost/Delayed/Canceled, Undelivered -
  // Safety/Rejected); the exact spellings were not seen in a source.
  Exception_Security: 'error',
  Exception_Damage: 'error',
  Exception_Rejected: 'error',
  Exception_Delayed: 'error',
  Exception_Lost: 'error',
  Exception_Destroyed: 'error',
  Exception_Cancel: 'cancelled',
};

/** Main statuses, for a sub-status this table does not know. */
export const SEVENTEEN_TRACK_MAIN_STATUSES: Readonly<Record<string, TrackingStatusCode>> = {
  NotFound: 'no_info',
  InfoReceived: 'pre_transit',
  InTransit: 'in_transit',
  Expired: 'expired',
  AvailableForPickup: 'available_for_pickup',
  OutForDelivery: 'delivery_in_progress',
  DeliveryFailure: 'unsuccessful_delivery',
  Delivered: 'delivered',
  Exception: 'error',
};

/** An event's `stage` (the milestone key stages seen in payloads), when it is not a main status. */
export const SEVENTEEN_TRACK_STAGES: Readonly<Record<string, TrackingStatusCode>> = {
  InfoReceived: 'pre_transit',
  PickedUp: 'in_transit',
  Departure: 'in_transit',
  Arrival: 'in_transit',
  AvailableForPickup: 'available_for_pickup',
  OutForDelivery: 'delivery_in_progress',
  Delivered: 'delivered',
  Returning: 'return_to_sender',
  Returned: 'return_to_sender',
};

/** Our status of a 17TRACK (status, sub-status) pair or event stage; null when unknown. */
export function seventeenTrackStatus(
  main: string | null | undefined,
  sub: string | null | undefined,
): TrackingStatusCode | null {
  if (sub && own(SEVENTEEN_TRACK_SUB_STATUSES, sub)) return SEVENTEEN_TRACK_SUB_STATUSES[sub];
  if (main && own(SEVENTEEN_TRACK_MAIN_STATUSES, main)) return SEVENTEEN_TRACK_MAIN_STATUSES[main];
  if (main && own(SEVENTEEN_TRACK_STAGES, main)) return SEVENTEEN_TRACK_STAGES[main];
  return null;
}

function own(table: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(table, key);
}
