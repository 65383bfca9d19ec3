/**
 * The order table's part of the public lookups (a tracking page's home search, a widget's
 * order lookup): SQL fragments that the shipments' page store joins in the same statement, so
 * those lookups stay one round trip while the order table's name and columns stay here.
 */

/** Placeholders (or SQL expressions) a fragment compares the order with. */
export interface OrderContactParams {
  workspace: string;
  orderNumber: string;
  /** Text: the customer's e-mail address, compared in any case; may be null. */
  email: string;
  /**
   * Text: the last digits of the customer's phone number (may be null): an order matches
   * when the digits of its phone number end with them.
   */
  phoneTail: string;
}

/**
 * `SELECT id` of the workspace's orders with that number whose e-mail (any case) or phone
 * number (its last digits) is the one given: the orders a customer proved to know.
 */
export function ordersMatchingContactSql(p: OrderContactParams): string {
  return `SELECT o.id FROM "order" o
          WHERE o.workspace_id = ${p.workspace} AND o.order_number = ${p.orderNumber}
            AND ((o.email IS NOT NULL AND lower(o.email) = lower(${p.email}))
                 OR (${p.phoneTail}::text IS NOT NULL AND right(regexp_replace(coalesce(o.phone_number, ''), '\\D', '', 'g'), length(${p.phoneTail})) = ${p.phoneTail}))`;
}

/** `SELECT id` of the workspace's orders with that number and e-mail address (any case). */
export function ordersWithEmailSql(p: Omit<OrderContactParams, 'phoneTail'>): string {
  return `SELECT o.id FROM "order" o
          WHERE o.workspace_id = ${p.workspace} AND o.order_number = ${p.orderNumber}
            AND lower(o.email) = lower(${p.email})`;
}
