import type { StoreAddress, StoreOrder, StoreOrderLine, StoreShipment } from '../store-platform';

/** Raw GraphQL objects as the queries of shopify-queries.ts select them. */
export type ShopifyNode = Readonly<Record<string, unknown>>;

/**
 * The numeric id of a Shopify global id (`gid://shopify/Order/450789469` -> `450789469`):
 * our records keep the number merchants see in admin URLs and webhooks carry as `id`.
 */
export function legacyId(gid: unknown): string | null {
  if (typeof gid !== 'string') return null;
  const match = /^gid:\/\/shopify\/[A-Za-z]+\/(\d+)(?:\?.*)?$/.exec(gid);
  return match ? match[1] : null;
}

export function shopifyGid(type: 'Order' | 'Fulfillment', id: string): string {
  return `gid://shopify/${type}/${id}`;
}

/** A Shopify order (GraphQL) as a store order; null when it lacks what every order has. */
export function shopifyStoreOrder(
  node: ShopifyNode,
  adminBaseUrl: string | null,
): StoreOrder | null {
  const id = legacyId(node.id);
  const updatedAt = date(node.updatedAt);
  if (!id || !updatedAt) return null;
  const currency = str(node.currencyCode);
  return {
    platform: 'shopify',
    id,
    number: str(node.name) ?? id,
    createdAt: date(node.createdAt),
    updatedAt,
    email: str(node.email),
    phone: str(node.phone),
    currency,
    subtotal: amount(node.subtotalPriceSet),
    total: amount(node.totalPriceSet),
    status: orderStatus(node),
    shippingAddress: address(node.shippingAddress),
    billingAddress: address(node.billingAddress),
    url: adminBaseUrl ? `${adminBaseUrl}/admin/orders/${id}` : null,
    lines: nodes(node.lineItems)
      .map(line)
      .filter((l): l is StoreOrderLine => l !== null),
    shipments: list(node.fulfillments)
      .map(shipment)
      .filter((s): s is StoreShipment => s !== null),
  };
}

/** Cancelled and closed first, else the fulfillment status Shopify displays. */
function orderStatus(node: ShopifyNode): StoreOrder['status'] {
  if (node.cancelledAt) return { code: 'cancelled', title: 'Cancelled' };
  if (node.closed === true) return { code: 'closed', title: 'Closed' };
  const status = str(node.displayFulfillmentStatus);
  if (!status) return null;
  const title = status.charAt(0) + status.slice(1).toLowerCase().replace(/_/g, ' ');
  return { code: status.toLowerCase(), title };
}

function line(node: ShopifyNode): StoreOrderLine | null {
  const id = legacyId(node.id);
  if (!id) return null;
  const variantTitle = str(node.variantTitle);
  return {
    id,
    name: str(node.name),
    sku: str(node.sku),
    quantity: typeof node.quantity === 'number' ? node.quantity : 0,
    price: amount(node.originalUnitPriceSet),
    productId: legacyId(object(node.product)?.id),
    variantId: null,
    options: variantTitle && variantTitle !== 'Default Title' ? { variant: variantTitle } : {},
    imageUrl: str(object(node.image)?.url),
  };
}

/** A fulfillment as a parcel; its lines point at order lines by their numeric ids. */
export function shipment(node: ShopifyNode): StoreShipment | null {
  const id = legacyId(node.id);
  if (!id) return null;
  const tracking = list(node.trackingInfo);
  return {
    id,
    trackingNumbers: tracking.map((t) => str(t.number)).filter((n): n is string => n !== null),
    carrierName: tracking.map((t) => str(t.company)).find((c) => c !== null) ?? null,
    trackingUrl: tracking.map((t) => str(t.url)).find((u) => u !== null) ?? null,
    createdAt: date(node.createdAt),
    lines: nodes(node.fulfillmentLineItems)
      .map((fli) => ({
        lineId: legacyId(object(fli.lineItem)?.id) ?? '',
        quantity: typeof fli.quantity === 'number' ? fli.quantity : 0,
      }))
      .filter((l) => l.lineId !== ''),
    address: null,
  };
}

function address(value: unknown): StoreAddress | null {
  const a = object(value);
  if (!a) return null;
  return {
    firstName: str(a.firstName),
    lastName: str(a.lastName),
    company: str(a.company),
    addressLine1: str(a.address1),
    addressLine2: str(a.address2),
    city: str(a.city),
    state: str(a.provinceCode) ?? str(a.province),
    postcode: str(a.zip),
    country: str(a.country),
    countryIso2: str(a.countryCodeV2),
    phone: str(a.phone),
  };
}

/** `{shopMoney: {amount}}` -> the amount. */
function amount(value: unknown): string | null {
  return str(object(object(value)?.shopMoney)?.amount);
}

/** The elements of a connection (`nodes` or `edges.node`). */
export function nodes(value: unknown): ShopifyNode[] {
  const conn = object(value);
  if (!conn) return [];
  if (Array.isArray(conn.nodes)) return conn.nodes.filter(isObject);
  if (Array.isArray(conn.edges))
    return conn.edges.map((e) => object(object(e)?.node)).filter((n): n is ShopifyNode => !!n);
  return [];
}

function list(value: unknown): ShopifyNode[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

function object(value: unknown): ShopifyNode | null {
  return isObject(value) ? value : null;
}

function isObject(value: unknown): value is ShopifyNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== ''
    ? value
    : typeof value === 'number'
      ? String(value)
      : null;
}

function date(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : new Date(at);
}
