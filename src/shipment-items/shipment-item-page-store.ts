/**
 * The shipment_item table's part of a tracking page: what a shipment carries, as a subquery
 * the order items' page store joins in the same statement (one round trip per page).
 */

/**
 * `SELECT order_item_id, qty` of the shipment items of the shipment `shipmentSql` (a
 * placeholder or SQL expression): which order items it carries, and how many of each.
 */
export function carriedItemsSql(shipmentSql: string): string {
  return `SELECT si.order_item_id, si.qty FROM shipment_item si WHERE si.shipment_id = ${shipmentSql}`;
}
