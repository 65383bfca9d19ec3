import type { PlannedShipment } from '../rules/import-plan';
import type { ImportedAddress, ImportedOrder, ImportedOrderItem } from '../rules/order-mapping';

/** Where a body's records go: the workspace and the workflow importing them. */
export interface BodyScope {
  readonly workspaceId: string;
  readonly workflowId: string;
}

/**
 * The bodies the store order importer writes, as an API client would send them: POST bodies
 * (`creating`) carry the workspace, the store ids and the workflow; PUT bodies only what the
 * store keeps and may change.
 */
/** POST /orders (creating) or PUT /orders/{id}: the fields the store keeps. */
export function orderBody(order: ImportedOrder, scope: BodyScope, creating: boolean) {
  const body: Record<string, unknown> = {
    email: order.email,
    phoneNumber: order.phoneNumber,
    subtotal: order.subtotal,
    total: order.total,
    orderStatus: order.orderStatus,
    shippingAddress: address(order.shippingAddress),
    billingAddress: address(order.billingAddress),
  };
  if (order.currency !== null) body.currency = order.currency;
  if (!creating) return body;
  return {
    ...body,
    workspace: `/workspaces/${scope.workspaceId}`,
    orderNumber: order.orderNumber,
    externalSourceIntegration: `/workflows/${scope.workflowId}`,
    externalSourceSyncId: order.externalSourceSyncId,
    externalSourceUrl: order.externalSourceUrl,
  };
}

export function itemBody(
  item: ImportedOrderItem,
  orderIri: string,
  workflowIri: string,
  creating: boolean,
) {
  const body: Record<string, unknown> = {
    productName: item.productName,
    productSku: item.productSku,
    productOptions: item.productOptions,
    qty: item.qty,
    price: item.price,
    externalProductId: item.externalProductId,
    imageUrl: item.imageUrl,
  };
  if (!creating) return body;
  return {
    ...body,
    order: orderIri,
    externalSourceSyncId: item.externalSourceSyncId,
    externalSourceIntegration: workflowIri,
  };
}

/**
 * POST /shipments with its items (creating), or PUT /shipments/{id}: the number (a changed one
 * moves the shipment), contact, address, the order link and the items, kept by id where the
 * shipment has them already (items left out go, as PUT says).
 */
export function shipmentBody(
  planned: PlannedShipment,
  scope: BodyScope,
  orderIri: string,
  workflowIri: string,
  itemIds: ReadonlyMap<string, string>,
  itemsOf: ReadonlyMap<string, ReadonlyArray<{ id: string; orderItemId: string }>>,
  creating: boolean,
) {
  const shipment = planned.record;
  const current = planned.existing ? (itemsOf.get(planned.existing.recordId) ?? []) : [];
  const shipmentItems = shipment.items.flatMap(
    ({ orderItemSyncId, qty }): Record<string, unknown>[] => {
      const orderItemId = itemIds.get(orderItemSyncId);
      if (!orderItemId) return [];
      const kept = current.find((i) => i.orderItemId === orderItemId);
      return kept
        ? [{ '@id': `/shipment_items/${kept.id}`, qty }]
        : [
            {
              orderItem: `/order_items/${orderItemId}`,
              qty,
              ...(creating ? { externalSourceIntegration: workflowIri } : {}),
            },
          ];
    },
  );
  const body: Record<string, unknown> = {
    trackingNumber: shipment.trackingNumber,
    email: shipment.email,
    phoneNumber: shipment.phoneNumber,
    address: address(shipment.address),
    orders: [orderIri],
    shipmentItems,
  };
  // A new number is identified again (from the store's carrier name or by detection).
  if (shipment.originCarrier !== null && (creating || planned.moved))
    body.originCarrier = shipment.originCarrier;
  if (!creating) return body;
  return {
    ...body,
    workspace: `/workspaces/${scope.workspaceId}`,
    externalSourceIntegration: workflowIri,
    externalSourceSyncId: shipment.externalSourceSyncId,
  };
}

/** Every member, null where the store has none (a member the store cleared is cleared here). */
function address(value: ImportedAddress): Record<string, string | null> {
  return { ...value };
}

/** An address without what names or locates a person. */
export const REDACTED_ADDRESS = {
  firstName: null,
  lastName: null,
  company: null,
  addressLine1: null,
  addressLine2: null,
  city: null,
  postcode: null,
  state: null,
};
