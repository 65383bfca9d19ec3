import { isTrackingStatusCode, type TrackingStatusCode } from '../../tracking/statuses';
import type { StorePlatformType, StorePushAction } from '../store-platform';
import { shopifyFulfillmentEvent } from './shopify-events';
import type { StoreSyncOptions } from './store-connection';
import { bigcommercePushes, woocommercePushes } from './store-push';
import type { TrackingChange } from './tracking-change';

/** A `shipment.status_changed` event and what we know of its shipment when it is sent. */
export interface StatusChangeFacts {
  /** The parcel's store ids. */
  readonly storeOrderId: string;
  readonly storeShipmentId: string;
  /** The event's payload (trackingStatus, lastStatusUpdate). */
  readonly payload: Readonly<Record<string, unknown>>;
  /** When the event was recorded. */
  readonly recordedAt: Date;
  readonly trackingNumber: string | null;
  /** Our carrier's name ("UPS"). */
  readonly carrierName: string | null;
  readonly expectedDeliveryDate: Date | null;
  /** The shipment's latest checkpoint. */
  readonly checkpoint: {
    readonly status: string;
    readonly checkpointDate: Date;
    readonly location: string | null;
    readonly countryIso2: string | null;
    readonly info: string | null;
  } | null;
  readonly trackingPageUrl: string | null;
}

/**
 * The change the push rules judge, or null when the event names no status of ours. Where and
 * when come from the latest checkpoint when it reports this status (else the status's time);
 * a checkpoint's location is free text, sent as the city.
 */
export function trackingChangeOf(facts: StatusChangeFacts): TrackingChange | null {
  const status = facts.payload.trackingStatus;
  if (typeof status !== 'string' || !isTrackingStatusCode(status)) return null;
  const checkpoint = facts.checkpoint?.status === status ? facts.checkpoint : null;
  const lastUpdate =
    typeof facts.payload.lastStatusUpdate === 'string'
      ? new Date(facts.payload.lastStatusUpdate)
      : null;
  const happenedAt =
    checkpoint?.checkpointDate ??
    (lastUpdate && !Number.isNaN(lastUpdate.getTime()) ? lastUpdate : facts.recordedAt);
  return {
    orderSyncId: facts.storeOrderId,
    shipmentSyncId: facts.storeShipmentId,
    trackingNumber:
      facts.trackingNumber ??
      (typeof facts.payload.trackingNumber === 'string' ? facts.payload.trackingNumber : ''),
    carrierName: facts.carrierName,
    status,
    happenedAt,
    expectedDeliveryDate: facts.expectedDeliveryDate,
    location: checkpoint
      ? {
          city: checkpoint.location?.slice(0, 255) ?? null,
          state: null,
          countryIso2: checkpoint.countryIso2,
          postcode: null,
        }
      : null,
    message: checkpoint?.info?.trim() || null,
    trackingPageUrl: facts.trackingPageUrl,
  };
}

/** What else a platform's pushes depend on. */
export interface PushContext {
  /** Shopify: the statuses the fulfillment was sent before. */
  readonly alreadySent: readonly string[];
  /** WooCommerce, BigCommerce: the statuses of every parcel of the order (this one included). */
  readonly orderStatuses: ReadonlyArray<TrackingStatusCode | null>;
  readonly options: StoreSyncOptions;
}

/**
 * What the store gets for a change: Shopify one fulfillment event (never a status twice),
 * WooCommerce an order note and, if the workflow says so, the order completed once every
 * parcel is delivered, BigCommerce the workflow's order status then.
 */
export function storePushes(
  platform: StorePlatformType,
  change: TrackingChange,
  context: PushContext,
): StorePushAction[] {
  switch (platform) {
    case 'shopify': {
      const event = shopifyFulfillmentEvent(change, context.alreadySent);
      return event ? [event] : [];
    }
    case 'woocommerce':
      return woocommercePushes(change, context.orderStatuses, {
        customerNote: context.options.customerNotes,
        completeOnDelivery: context.options.completeOnDelivery,
      });
    case 'bigcommerce':
      return bigcommercePushes(change, context.orderStatuses, context.options.statusIdOnDelivery);
  }
}
