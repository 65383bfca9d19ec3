import { shipmentLookupSql } from '../shipments/shipment-lookup-sql';

/**
 * The SQL of the order look-ups (src/lookups) on an order row `a`, written as the lookup
 * indexes define them. `p` is a placeholder.
 */
export const orderLookupSql = {
  /** The orders matching a condition on `a`: a subquery answering their ids. */
  idsWhere: (a: string, condition: string): string =>
    `SELECT ${a}.id FROM "order" ${a} WHERE ${condition}`,

  /** An order matches a tracking number through its shipments. */
  trackingNumber: shipmentLookupSql.orderWithTrackingNumber,

  orderNumber: (a: string, p: string): string => `${a}.order_number = ${p}`,
};
