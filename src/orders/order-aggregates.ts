import type { EntityManager } from 'typeorm';

/**
 * Recomputes the stored `fulfillmentStatus` and `shipmentsWithoutTrackingCount`
 * of orders from their items, shipment items and linked shipments, inside the
 * caller's transaction. Called after every change that can move them.
 *
 * The orders are locked first (in id order, so writers never deadlock on
 * them); under READ COMMITTED the UPDATE that follows takes a fresh snapshot,
 * so it sees every change committed by a writer that held the lock before:
 * the last writer of an order always leaves it right.
 */
export async function refreshOrderAggregates(
  em: EntityManager,
  orderIds: Iterable<string | null | undefined>,
): Promise<void> {
  const ids = [...new Set([...orderIds].filter((id): id is string => !!id))];
  if (ids.length === 0) return;
  await em.query('SELECT id FROM "order" WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE', [ids]);
  // Same rule as fulfillmentStatusOf() in fulfillment-status.ts.
  await em.query(
    `UPDATE "order" o
        SET fulfillment_status = f.status,
            shipments_without_tracking_count = f.untracked,
            updated_at = now()
       FROM (
         SELECT o2.id,
                (SELECT CASE
                          WHEN COALESCE(sum(LEAST(x.fulfilled, x.qty)), 0) = 0 THEN 'not_fulfilled'
                          WHEN bool_and(x.fulfilled >= x.qty) THEN 'fulfilled'
                          ELSE 'partial'
                        END
                   FROM (SELECT oi.qty,
                                (SELECT COALESCE(sum(si.qty), 0)
                                   FROM shipment_item si
                                  WHERE si.order_item_id = oi.id) AS fulfilled
                           FROM order_item oi
                          WHERE oi.order_id = o2.id) x) AS status,
                (SELECT count(*)::int
                   FROM shipment_order so
                   JOIN shipment s ON s.id = so.shipment_id
                  WHERE so.order_id = o2.id AND s.tracking_number IS NULL) AS untracked
           FROM "order" o2
          WHERE o2.id = ANY($1::uuid[])
       ) f
      WHERE o.id = f.id
        AND (o.fulfillment_status, o.shipments_without_tracking_count)
            IS DISTINCT FROM (f.status, f.untracked)`,
    [ids],
  );
}

/** Orders whose aggregates depend on a shipment: linked ones and those of its items. */
export async function ordersOfShipment(em: EntityManager, shipmentId: string): Promise<string[]> {
  const rows: Array<{ id: string }> = await em.query(
    `SELECT order_id AS id FROM shipment_order WHERE shipment_id = $1
     UNION
     SELECT oi.order_id FROM shipment_item si JOIN order_item oi ON oi.id = si.order_item_id
      WHERE si.shipment_id = $1`,
    [shipmentId],
  );
  return rows.map((r) => r.id);
}
