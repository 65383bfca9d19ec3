import type { TrackingStatusCode } from '../../tracking/statuses';

/**
 * A tracking status change of a shipment that came from a store, as the push rules need it:
 * what to tell the store (the decided StorePushAction) follows from this alone, plus what was
 * already sent.
 */
export interface TrackingChange {
  /** The store's id of the order and of the parcel (externalSourceSyncIds). */
  readonly orderSyncId: string;
  readonly shipmentSyncId: string;
  readonly trackingNumber: string;
  /** Our carrier's name, when known ("UPS"). */
  readonly carrierName: string | null;
  readonly status: TrackingStatusCode;
  /** When the carrier saw it (the checkpoint), else when we learnt it. */
  readonly happenedAt: Date;
  readonly expectedDeliveryDate: Date | null;
  /** Where the parcel was, from the checkpoint. */
  readonly location: {
    readonly city: string | null;
    readonly state: string | null;
    readonly countryIso2: string | null;
    readonly postcode: string | null;
  } | null;
  /** The checkpoint's own words, if any. */
  readonly message: string | null;
  /** The customer's tracking page (our /t/{hash} link). */
  readonly trackingPageUrl: string | null;
}
