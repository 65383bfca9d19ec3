import type { EntityManager } from 'typeorm';
import { deferringRefresh } from './deferred-refresh';
import { OrderStore } from './order-store';

/** The store of the functions below, which the shipments module calls without injection. */
const orders = new OrderStore();

/** The ids given, without blanks and repeats. */
export function orderIdsOf(orderIds: Iterable<string | null | undefined>): string[] {
  return [...new Set([...orderIds].filter((id): id is string => !!id))];
}

/**
 * Recomputes the stored `fulfillmentStatus` and `shipmentsWithoutTrackingCount` of orders
 * inside the caller's transaction (OrderStore.refreshAggregates). Called after every change
 * that can move them.
 */
export async function refreshOrderAggregates(
  em: EntityManager,
  orderIds: Iterable<string | null | undefined>,
  store: OrderStore = orders,
): Promise<void> {
  await store.refreshAggregates(em, orderIdsOf(orderIds));
}

/** Orders whose aggregates depend on a shipment: linked ones and those of its items. */
export function ordersOfShipment(
  em: EntityManager,
  shipmentId: string,
  store: OrderStore = orders,
): Promise<string[]> {
  return store.ofShipment(em, shipmentId);
}

/**
 * Runs a write's part that refreshes orders many times (a shipment and the items it writes)
 * with the refreshes deferred (deferred-refresh.ts), then refreshes every order it touched
 * once, on `em`.
 */
export async function refreshingOnce<E extends EntityManager>(
  em: E,
  work: (deferring: E) => Promise<void>,
  store: OrderStore = orders,
): Promise<void> {
  const dirty = await deferringRefresh(em, work);
  await store.refreshAggregates(em, [...dirty]);
}
