import { findTrackingStatus, type TrackingStatusCode } from '../../tracking/statuses';
import type { StorePushAction } from '../store-platform';
import type { TrackingChange } from './tracking-change';

/**
 * BigCommerce's "Completed" order status id, the suggested status on delivery. UNCONFIRMED:
 * seen only in third-party lists of the built-in statuses (0 Incomplete ... 11 Awaiting
 * Fulfillment); a store can rename statuses but not renumber them.
 */
export const BIGCOMMERCE_COMPLETED_STATUS_ID = 10;

/** Statuses that tell a customer nothing new: no order note. */
const SILENT: ReadonlySet<TrackingStatusCode> = new Set(['no_info']);

/**
 * The order note WooCommerce gets for a status change: the parcel, the status in words, where
 * and when, the expected delivery and the tracking page. The time is part of the text, so a
 * retried push finds its own note (woocommerce-client.ts skips a note already there) while
 * the same status reached again later is a new note.
 */
export function woocommerceNoteText(change: TrackingChange): string | null {
  if (SILENT.has(change.status)) return null;
  const title = findTrackingStatus(change.status)?.title ?? change.status;
  const parts = [
    `Shipment ${change.trackingNumber}${change.carrierName ? ` (${change.carrierName})` : ''}: ${title}`,
  ];
  const where = [change.location?.city, change.location?.state, change.location?.countryIso2]
    .filter((p): p is string => !!p && p.trim() !== '')
    .join(', ');
  parts.push(`${where ? `${where}, ` : ''}${utc(change.happenedAt)}`);
  if (change.message) parts.push(change.message.slice(0, 200));
  if (change.expectedDeliveryDate && change.status !== 'delivered')
    parts.push(`Expected delivery: ${change.expectedDeliveryDate.toISOString().slice(0, 10)}`);
  if (change.trackingPageUrl) parts.push(`Track it: ${change.trackingPageUrl}`);
  return `${parts.join('. ')}.`;
}

export interface WooCommercePushOptions {
  /** Notes shown to (and mailed to) the customer, or private notes for the shop's staff. */
  readonly customerNote: boolean;
  /** Mark the order completed once every parcel of it is delivered. */
  readonly completeOnDelivery: boolean;
}

/** What WooCommerce gets for a change: a note, and the order completed when all is delivered. */
export function woocommercePushes(
  change: TrackingChange,
  orderShipmentStatuses: ReadonlyArray<TrackingStatusCode | null>,
  options: WooCommercePushOptions,
): StorePushAction[] {
  const actions: StorePushAction[] = [];
  const note = woocommerceNoteText(change);
  if (note)
    actions.push({
      kind: 'woocommerce.note',
      orderId: change.orderSyncId,
      note,
      customerNote: options.customerNote,
    });
  if (options.completeOnDelivery && allDelivered(change, orderShipmentStatuses))
    actions.push({ kind: 'woocommerce.complete', orderId: change.orderSyncId });
  return actions;
}

/**
 * BigCommerce's order status once every parcel of the order is delivered, when the workflow
 * names one (BIGCOMMERCE_COMPLETED_STATUS_ID suggested); nothing otherwise.
 */
export function bigcommercePushes(
  change: TrackingChange,
  orderShipmentStatuses: ReadonlyArray<TrackingStatusCode | null>,
  statusIdOnDelivery: number | null,
): StorePushAction[] {
  if (statusIdOnDelivery === null || !allDelivered(change, orderShipmentStatuses)) return [];
  return [
    { kind: 'bigcommerce.status', orderId: change.orderSyncId, statusId: statusIdOnDelivery },
  ];
}

/** This change is a delivery and the order's other parcels (this one included) are delivered. */
function allDelivered(
  change: TrackingChange,
  orderShipmentStatuses: ReadonlyArray<TrackingStatusCode | null>,
): boolean {
  return change.status === 'delivered' && orderShipmentStatuses.every((s) => s === 'delivered');
}

function utc(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
