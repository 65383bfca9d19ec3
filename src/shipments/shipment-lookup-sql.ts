/**
 * The SQL of the shipment look-ups (src/lookups) on a shipment row `a`, written exactly as the
 * lookup indexes of migration 1763860000000 define them (with their IS NOT NULL predicates),
 * so the planner uses them. `p` is a placeholder.
 */
export const shipmentLookupSql = {
  /** The shipments matching a condition on `a`: a subquery answering their ids. */
  idsWhere: (a: string, condition: string): string =>
    `SELECT ${a}.id FROM shipment ${a} WHERE ${condition}`,

  /** Tracking numbers compare without case: carriers print them in capitals, people type them in any. */
  trackingNumber: (a: string, p: string): string =>
    `(${a}.tracking_number IS NOT NULL AND upper(${a}.tracking_number) = upper(${p}))`,

  /** A shipment names its orders by number. */
  orderNumber: (a: string, p: string): string => `${a}.order_numbers @> ARRAY[${p}]::text[]`,

  /** An order `a` (with `id` and `workspace_id`) has a shipment of its workspace with this number. */
  orderWithTrackingNumber: (a: string, p: string): string =>
    `EXISTS (SELECT 1 FROM shipment_order so JOIN shipment s ON s.id = so.shipment_id
     WHERE so.order_id = ${a}.id AND s.workspace_id = ${a}.workspace_id
       AND s.tracking_number IS NOT NULL AND upper(s.tracking_number) = upper(${p}))`,
};
