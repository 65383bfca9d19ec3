import type { TrackingStatusCode } from '../../tracking/statuses';
import type { StorePushAction } from '../store-platform';
import type { TrackingChange } from './tracking-change';

/** Shopify's FulfillmentEventStatus values [official: admin-graphql enum]. */
export const SHOPIFY_EVENT_STATUSES = [
  'ATTEMPTED_DELIVERY',
  'CARRIER_PICKED_UP',
  'CONFIRMED',
  'DELAYED',
  'DELIVERED',
  'FAILURE',
  'IN_TRANSIT',
  'LABEL_PRINTED',
  'LABEL_PURCHASED',
  'OUT_FOR_DELIVERY',
  'READY_FOR_PICKUP',
] as const;
export type ShopifyEventStatus = (typeof SHOPIFY_EVENT_STATUSES)[number];

/**
 * Our tracking status -> the fulfillment event shown on the customer's order status page, one
 * row each (storefront-apis.md's suggestion, not a Shopify fact). pre_transit is CONFIRMED
 * rather than LABEL_PURCHASED: the carrier confirms it knows the parcel, the label was the
 * merchant's act. in_transit's first event is CARRIER_PICKED_UP (shopifyEventStatusFor).
 * no_info and expired tell the customer nothing.
 */
export const SHOPIFY_EVENT_FOR_STATUS: Readonly<
  Record<TrackingStatusCode, ShopifyEventStatus | null>
> = {
  pre_transit: 'CONFIRMED',
  no_info: null,
  in_transit: 'IN_TRANSIT',
  delivery_in_progress: 'OUT_FOR_DELIVERY',
  available_for_pickup: 'READY_FOR_PICKUP',
  unsuccessful_delivery: 'ATTEMPTED_DELIVERY',
  delivered: 'DELIVERED',
  error: 'FAILURE',
  return_to_sender: 'FAILURE',
  cancelled: 'FAILURE',
  transit_limit_exceeded: 'DELAYED',
  expired: null,
};

/**
 * The event to send for a new status, given the events the fulfillment already has (ours or
 * anyone's): null when the status says nothing or its event was sent before, so a fulfillment
 * never shows the same status twice. The first in_transit is the pickup (CARRIER_PICKED_UP);
 * a later one is IN_TRANSIT.
 */
export function shopifyEventStatusFor(
  status: TrackingStatusCode,
  alreadySent: readonly string[],
): ShopifyEventStatus | null {
  const event = SHOPIFY_EVENT_FOR_STATUS[status];
  if (event === null) return null;
  if (event === 'IN_TRANSIT' && !alreadySent.includes('CARRIER_PICKED_UP')) {
    return alreadySent.includes('IN_TRANSIT') ? null : 'CARRIER_PICKED_UP';
  }
  return alreadySent.includes(event) ? null : event;
}

/** The fulfillmentEventCreate to send for a change, or null (see shopifyEventStatusFor). */
export function shopifyFulfillmentEvent(
  change: TrackingChange,
  alreadySent: readonly string[],
): StorePushAction | null {
  const status = shopifyEventStatusFor(change.status, alreadySent);
  if (status === null) return null;
  return {
    kind: 'shopify.fulfillmentEvent',
    fulfillmentId: change.shipmentSyncId.replace(/:\d+$/, ''),
    status,
    happenedAt: change.happenedAt.toISOString(),
    estimatedDeliveryAt: change.expectedDeliveryDate?.toISOString() ?? null,
    message: change.message?.slice(0, 255) ?? null,
    city: change.location?.city ?? null,
    province: change.location?.state ?? null,
    country: change.location?.countryIso2 ?? null,
    zip: change.location?.postcode ?? null,
  };
}
