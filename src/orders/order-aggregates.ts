import type { EntityManager } from 'typeorm';
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
