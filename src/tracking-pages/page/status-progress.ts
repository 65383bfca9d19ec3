import { isTrackingStatusCode, type TrackingStatusCode } from '../../tracking/statuses';

/** The steps of a parcel's journey, as the stepper shows them. */
export const PROGRESS_STEPS = [
  'ordered',
  'shipped',
  'inTransit',
  'outForDelivery',
  'delivered',
] as const;
export type ProgressStep = (typeof PROGRESS_STEPS)[number];

/**
 * An event off the normal path, shown on the step where it happened: `alert` when something
 * went wrong, `notice` when the customer has something to do (collect the parcel).
 */
export interface ProgressException {
  status: TrackingStatusCode;
  tone: 'alert' | 'notice';
}

export interface Progress {
  /** The status words to show (`unknown` before the first tracking status). */
  status: TrackingStatusCode | 'unknown';
  /** Index in PROGRESS_STEPS of the step the parcel is at. */
  current: number;
  exception: ProgressException | null;
}

const STEP_OF: Record<TrackingStatusCode, ProgressStep> = {
  pre_transit: 'ordered',
  no_info: 'ordered',
  cancelled: 'ordered',
  in_transit: 'inTransit',
  transit_limit_exceeded: 'inTransit',
  error: 'inTransit',
  return_to_sender: 'inTransit',
  expired: 'inTransit',
  delivery_in_progress: 'outForDelivery',
  unsuccessful_delivery: 'outForDelivery',
  available_for_pickup: 'outForDelivery',
  delivered: 'delivered',
};

const EXCEPTIONS: Partial<Record<TrackingStatusCode, ProgressException['tone']>> = {
  cancelled: 'alert',
  transit_limit_exceeded: 'notice',
  error: 'alert',
  return_to_sender: 'alert',
  expired: 'alert',
  unsuccessful_delivery: 'alert',
  available_for_pickup: 'notice',
};

/**
 * Where a shipment stands on the stepper. A shipment with a shipping date is at least
 * `shipped`; one that expired or failed before being shipped shows it on `ordered`.
 */
export function progressOf(trackingStatus: string | null, shippedAt: string | null): Progress {
  if (!isTrackingStatusCode(trackingStatus)) {
    return { status: 'unknown', current: shippedAt ? 1 : 0, exception: null };
  }
  let current = PROGRESS_STEPS.indexOf(STEP_OF[trackingStatus]);
  if (shippedAt && current < 1 && trackingStatus !== 'cancelled') current = 1;
  if (
    !shippedAt &&
    current === 2 &&
    trackingStatus !== 'in_transit' &&
    trackingStatus !== 'transit_limit_exceeded'
  )
    current = 0;
  const tone = EXCEPTIONS[trackingStatus];
  return {
    status: trackingStatus,
    current,
    exception: tone ? { status: trackingStatus, tone } : null,
  };
}
