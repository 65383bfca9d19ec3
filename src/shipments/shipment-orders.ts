import type { EntityManager } from 'typeorm';
import { orderSql } from '../orders/order-store';
import { NEW_SHIPMENT, type DependentInsert } from './shipment-store';

/** An order as far as links go. */
export interface OrderRef {
  id: string;
  orderNumber: string | null;
}

export interface ShipmentOrdersInput {
  /** Links and numbers stored before the write (empty on create). */
  existingLinks: OrderRef[];
  existingNumbers: string[];
  /** `orders` of the body, when given. */
  givenOrders?: OrderRef[];
  /** `orderNumbers` of the body, when given. */
  givenNumbers?: string[];
}

/**
 * First step of keeping a shipment's `orders` and `orderNumbers` consistent:
 * what the body asks for. A given list replaces the stored one; when only
 * `orders` is given, the numbers of orders it unlinks are dropped; when only
 * `orderNumbers` is given, orders whose number it drops are unlinked.
 */
export function planShipmentOrders(input: ShipmentOrdersInput): {
  orders: OrderRef[];
  numbers: string[];
} {
  const { existingLinks, existingNumbers, givenOrders, givenNumbers } = input;
  let orders = existingLinks;
  let numbers = existingNumbers;
  if (givenOrders) {
    orders = givenOrders;
    if (!givenNumbers) {
      const kept = new Set(givenOrders.map((o) => o.id));
      const dropped = new Set(
        existingLinks.filter((o) => !kept.has(o.id) && o.orderNumber).map((o) => o.orderNumber),
      );
      numbers = existingNumbers.filter((n) => !dropped.has(n));
    }
  }
  if (givenNumbers) {
    numbers = givenNumbers;
    if (!givenOrders) {
      orders = existingLinks.filter(
        (o) => o.orderNumber === null || givenNumbers.includes(o.orderNumber),
      );
    }
  }
  return { orders: uniqueById(orders), numbers: [...new Set(numbers)] };
}

/**
 * Second step: orders of the workspace whose number the shipment carries are
 * linked, and every linked order's number is carried.
 */
export function completeShipmentOrders(
  plan: { orders: OrderRef[]; numbers: string[] },
  matchingNumbers: OrderRef[],
): { orders: OrderRef[]; numbers: string[] } {
  const orders = uniqueById([...plan.orders, ...matchingNumbers]);
  const numbers = [...plan.numbers];
  for (const o of orders)
    if (o.orderNumber && !numbers.includes(o.orderNumber)) numbers.push(o.orderNumber);
  return { orders, numbers };
}

function uniqueById(orders: OrderRef[]): OrderRef[] {
  const seen = new Set<string>();
  return orders.filter((o) => !seen.has(o.id) && seen.add(o.id));
}

/** Orders linked to a shipment. */
export async function linkedOrders(em: EntityManager, shipmentId: string): Promise<OrderRef[]> {
  const rows: Array<{ id: string; order_number: string | null }> = await em.query(
    `SELECT so.order_id AS id, ${orderSql.orderNumber('so.order_id')} AS order_number
       FROM shipment_order so WHERE so.shipment_id = $1`,
    [shipmentId],
  );
  return rows.map((r) => ({ id: r.id, orderNumber: r.order_number }));
}

/** Makes the shipment's links exactly these orders. */
export async function replaceShipmentLinks(
  em: EntityManager,
  shipmentId: string,
  orderIds: string[],
): Promise<void> {
  await em.query(
    'DELETE FROM shipment_order WHERE shipment_id = $1 AND NOT (order_id = ANY($2::uuid[]))',
    [shipmentId, orderIds],
  );
  if (orderIds.length > 0) {
    await em.query(
      `INSERT INTO shipment_order (shipment_id, order_id)
       SELECT $1, unnest($2::uuid[]) ON CONFLICT DO NOTHING`,
      [shipmentId, orderIds],
    );
  }
}

/**
 * A new shipment's links to its orders, written by the shipment's own INSERT (a dependent of
 * ShipmentStore.insert: the new row's id comes from that statement, one round trip fewer).
 */
export function newShipmentLinks(orderIds: readonly string[]): DependentInsert | null {
  if (orderIds.length === 0) return null;
  return {
    sql: (param) => `INSERT INTO shipment_order (shipment_id, order_id)
       SELECT (SELECT id FROM "${NEW_SHIPMENT}"), unnest(${param}::uuid[]) ON CONFLICT DO NOTHING`,
    param: orderIds,
  };
}

/** Links shipments to an order and adds its number to theirs. */
export async function linkShipmentsToOrder(
  em: EntityManager,
  order: OrderRef,
  shipmentIds: string[],
): Promise<void> {
  if (shipmentIds.length === 0) return;
  await em.query(
    `INSERT INTO shipment_order (shipment_id, order_id)
     SELECT unnest($1::uuid[]), $2 ON CONFLICT DO NOTHING`,
    [shipmentIds, order.id],
  );
  if (order.orderNumber) {
    await em.query(
      `UPDATE shipment SET order_numbers = array_append(order_numbers, $2), updated_at = now()
        WHERE id = ANY($1::uuid[]) AND NOT (order_numbers @> ARRAY[$2]::text[])`,
      [shipmentIds, order.orderNumber],
    );
  }
}

/**
 * Unlinks shipments from an order and removes its number from theirs, unless another order
 * still linked to the shipment has the same number (a safeguard: numbers are unique per
 * workspace and links stay within one). Also how an order's deletion leaves its shipments.
 */
export async function unlinkShipmentsFromOrder(
  em: EntityManager,
  order: OrderRef,
  shipmentIds: string[],
): Promise<void> {
  if (shipmentIds.length === 0) return;
  await em.query(
    'DELETE FROM shipment_order WHERE order_id = $2 AND shipment_id = ANY($1::uuid[])',
    [shipmentIds, order.id],
  );
  if (order.orderNumber) {
    await em.query(
      `UPDATE shipment s SET order_numbers = array_remove(order_numbers, $2), updated_at = now()
        WHERE s.id = ANY($1::uuid[]) AND s.order_numbers @> ARRAY[$2]::text[]
          AND NOT EXISTS (
            SELECT 1 FROM shipment_order so
             WHERE so.shipment_id = s.id AND ${orderSql.orderNumber('so.order_id')} = $2)`,
      [shipmentIds, order.orderNumber],
    );
  }
}
