/**
 * The twelve tracking status codes of a shipment (spec.md, "States and transitions").
 *
 * Every code belongs to exactly one phase, which drives the counters and the refresh schedule:
 * - pre-shipment: the parcel has not moved yet (also a shipment with no status at all);
 * - active: the parcel is on its way; daysInTransit counts;
 * - final: the journey is over; counting and background refreshing stop.
 * `expired` and `transit_limit_exceeded` are also derived by the status engine from time alone,
 * and a later real checkpoint overrides them.
 */
export const TRACKING_STATUS_CODES = [
  'pre_transit',
  'no_info',
  'in_transit',
  'delivery_in_progress',
  'delivered',
  'unsuccessful_delivery',
  'error',
  'expired',
  'available_for_pickup',
  'cancelled',
  'return_to_sender',
  'transit_limit_exceeded',
] as const;

export type TrackingStatusCode = (typeof TRACKING_STATUS_CODES)[number];

export type TrackingStatusPhase = 'pre_shipment' | 'active' | 'final';

/** Field names follow the reference TrackingStatus resource: code, title, description. */
export interface TrackingStatus {
  readonly code: TrackingStatusCode;
  readonly title: string;
  readonly description: string | null;
}

const PHASES: Readonly<Record<TrackingStatusCode, TrackingStatusPhase>> = {
  pre_transit: 'pre_shipment',
  no_info: 'pre_shipment',
  in_transit: 'active',
  delivery_in_progress: 'active',
  unsuccessful_delivery: 'active',
  available_for_pickup: 'active',
  transit_limit_exceeded: 'active',
  delivered: 'final',
  cancelled: 'final',
  error: 'final',
  return_to_sender: 'final',
  expired: 'final',
};

export const TRACKING_STATUSES: readonly TrackingStatus[] = Object.freeze([
  {
    code: 'pre_transit',
    title: 'Pre-transit',
    description:
      'The carrier has information about the package, but it has not been scanned or picked up yet.',
  },
  {
    code: 'no_info',
    title: 'No information',
    description: 'A label exists, but the package has not been scanned or picked up yet.',
  },
  {
    code: 'in_transit',
    title: 'In transit',
    description: 'The package is travelling to its destination.',
  },
  {
    code: 'delivery_in_progress',
    title: 'Out for delivery',
    description: 'The package is in the local area and is being delivered.',
  },
  {
    code: 'delivered',
    title: 'Delivered',
    description: 'The package has been delivered.',
  },
  {
    code: 'unsuccessful_delivery',
    title: 'Unsuccessful delivery',
    description: 'A delivery attempt failed; a new attempt usually follows.',
  },
  {
    code: 'error',
    title: 'Exception',
    description: 'Customs hold or another shipping exception.',
  },
  {
    code: 'expired',
    title: 'Expired',
    description: 'The package has had no tracking information for 30 days since creation.',
  },
  {
    code: 'available_for_pickup',
    title: 'Available for pickup',
    description: 'The package can be collected at the carrier facility.',
  },
  {
    code: 'cancelled',
    title: 'Cancelled',
    description: 'The delivery was cancelled.',
  },
  {
    code: 'return_to_sender',
    title: 'Return to sender',
    description: 'The package was not delivered and is on its way back to the sender.',
  },
  {
    code: 'transit_limit_exceeded',
    title: 'Transit limit exceeded',
    description: 'The package has been in transit much longer than normal.',
  },
] satisfies TrackingStatus[]);

const BY_CODE: ReadonlyMap<string, TrackingStatus> = new Map(
  TRACKING_STATUSES.map((s) => [s.code, s]),
);

export function isTrackingStatusCode(value: unknown): value is TrackingStatusCode {
  return typeof value === 'string' && BY_CODE.has(value);
}

/** The catalogue entry of a code, or undefined for an unknown code (GET .../{code} answers 404). */
export function findTrackingStatus(code: string): TrackingStatus | undefined {
  return BY_CODE.get(code);
}

/** null (no tracking number, no status yet) counts as pre-shipment. */
export function trackingStatusPhase(status: TrackingStatusCode | null): TrackingStatusPhase {
  return status === null ? 'pre_shipment' : PHASES[status];
}

/** delivered, cancelled, error, return_to_sender, expired: counters stop, refreshing stops. */
export function isFinal(status: TrackingStatusCode | null): boolean {
  return trackingStatusPhase(status) === 'final';
}

/** pre_transit, no_info, or no status at all (for example no tracking number). */
export function isPreShipment(status: TrackingStatusCode | null): boolean {
  return trackingStatusPhase(status) === 'pre_shipment';
}

/** in_transit, delivery_in_progress, unsuccessful_delivery, available_for_pickup, transit_limit_exceeded. */
export function isActive(status: TrackingStatusCode | null): boolean {
  return trackingStatusPhase(status) === 'active';
}

/**
 * Statuses that prove the parcel was handed over to the carrier: every active status, plus the
 * final ones that only a travelled parcel reaches. cancelled, error and expired may happen before
 * pickup, so they do not set shippedAt on their own.
 */
export function impliesShipped(status: TrackingStatusCode | null): boolean {
  return isActive(status) || status === 'delivered' || status === 'return_to_sender';
}
