/**
 * The most a shipment item may carry of its order item: what the order item
 * still lacks once every other shipment item of it is counted. The item's
 * own current quantity does not count against it (an update may keep it).
 */
export function availableQuantity(orderedQty: number, shippedByOthers: number): number {
  return Math.max(0, orderedQty - shippedByOthers);
}
