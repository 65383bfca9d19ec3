export const FULFILLMENT_STATUSES = ['not_fulfilled', 'partial', 'fulfilled'] as const;
export type FulfillmentStatus = (typeof FULFILLMENT_STATUSES)[number];

/**
 * An order's fulfilment from its items' ordered and shipped quantities:
 * nothing shipped is `not_fulfilled`; every item shipped in full is
 * `fulfilled`; anything between is `partial`. The SQL in order-aggregates.ts
 * computes the same; this is its specification.
 */
export function fulfillmentStatusOf(
  items: ReadonlyArray<{ qty: number; fulfilledQty: number }>,
): FulfillmentStatus {
  const shipped = items.reduce((sum, i) => sum + Math.min(i.fulfilledQty, i.qty), 0);
  if (shipped === 0) return 'not_fulfilled';
  return items.every((i) => i.fulfilledQty >= i.qty) ? 'fulfilled' : 'partial';
}
