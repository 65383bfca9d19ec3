import type { TrackingStatusCode } from '../../statuses';

/**
 * FedEx scan event codes (`scanEvents[].eventType`, `latestStatusDetail.code`) and derived
 * codes (`derivedStatusCode`) -> our twelve statuses. Rows marked [spec] appear in FedEx's Track
 * API spec examples, [list] in FedEx's published status-code list as transcribed by third
 * parties; the rest are UNCONFIRMED (README.md).
 */
export const FEDEX_EVENT_CODES: Readonly<Record<string, TrackingStatusCode>> = {
  OC: 'pre_transit', // shipment information sent to FedEx [spec]
  IN: 'pre_transit', // initiated (derived code) UNCONFIRMED
  AP: 'pre_transit', // at pickup [list]
  EP: 'pre_transit', // enroute to pickup UNCONFIRMED
  PD: 'pre_transit', // pickup delay UNCONFIRMED
  PU: 'in_transit', // picked up [spec]
  PX: 'in_transit', // picked up (see details) UNCONFIRMED
  AA: 'in_transit', // at airport [list]
  AC: 'in_transit', // at Canada Post facility [list]
  AF: 'in_transit', // at local FedEx facility [list]
  AR: 'in_transit', // arrived at [list]
  AX: 'in_transit', // at USPS facility [list]
  BR: 'in_transit', // broker [list]
  CC: 'in_transit', // cleared customs [list]
  CD: 'in_transit', // clearance delay [list]
  CH: 'in_transit', // location changed [list]
  CP: 'in_transit', // clearance in progress [list]
  CU: 'in_transit', // customs [list]
  DD: 'in_transit', // delivery delay [list]
  DP: 'in_transit', // departed [spec]
  DR: 'in_transit', // vehicle furnished but not used UNCONFIRMED
  DS: 'in_transit', // vehicle dispatched UNCONFIRMED
  DY: 'in_transit', // delay UNCONFIRMED
  EA: 'in_transit', // enroute to airport UNCONFIRMED
  EO: 'in_transit', // enroute to origin airport UNCONFIRMED
  FD: 'in_transit', // at FedEx destination UNCONFIRMED
  IT: 'in_transit', // in transit UNCONFIRMED
  IX: 'in_transit', // in transit (see details) UNCONFIRMED
  LO: 'in_transit', // left origin UNCONFIRMED
  OF: 'in_transit', // at FedEx origin facility UNCONFIRMED
  OX: 'in_transit', // shipment information sent to USPS UNCONFIRMED
  PF: 'in_transit', // plane in flight UNCONFIRMED
  PL: 'in_transit', // plane landed UNCONFIRMED
  PM: 'in_transit', // in progress UNCONFIRMED
  SF: 'in_transit', // at sort facility UNCONFIRMED
  SP: 'in_transit', // split status UNCONFIRMED
  TR: 'in_transit', // transfer UNCONFIRMED
  AD: 'delivery_in_progress', // at delivery [list]
  ED: 'delivery_in_progress', // enroute to delivery UNCONFIRMED
  OD: 'delivery_in_progress', // out for delivery UNCONFIRMED (widely used)
  DL: 'delivered', // delivered [list]
  DE: 'unsuccessful_delivery', // delivery exception [list]
  SE: 'unsuccessful_delivery', // shipment exception UNCONFIRMED
  HL: 'available_for_pickup', // hold at location [spec]
  HP: 'available_for_pickup', // ready for recipient pickup UNCONFIRMED
  CA: 'cancelled', // shipment cancelled [list]
  RS: 'return_to_sender', // return to shipper UNCONFIRMED (widely used)
};

/** Scans that hand the parcel to another carrier for the last mile. */
export const FEDEX_HANDOVER_CODES: Readonly<Record<string, string>> = {
  AX: 'usps', // at USPS facility (FedEx Ground Economy / SmartPost) [list]
  OX: 'usps', // shipment information sent to USPS UNCONFIRMED
  AC: 'canada-post', // at Canada Post facility [list]
};

/** An event with a code in neither table: a scan of a moving parcel. */
export const FEDEX_UNKNOWN_STATUS: TrackingStatusCode = 'in_transit';

export function fedexStatus(
  eventType: string | null | undefined,
  derivedStatusCode?: string | null,
): TrackingStatusCode {
  const byEvent = FEDEX_EVENT_CODES[(eventType ?? '').trim().toUpperCase()];
  if (byEvent) return byEvent;
  const byDerived = FEDEX_EVENT_CODES[(derivedStatusCode ?? '').trim().toUpperCase()];
  return byDerived ?? FEDEX_UNKNOWN_STATUS;
}
