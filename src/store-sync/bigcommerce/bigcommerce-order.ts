import type { StoreAddress, StoreOrder, StoreOrderLine, StoreShipment } from '../store-platform';

type Json = Readonly<Record<string, unknown>>;

/**
 * A BigCommerce order (v2) with its products, shipments and shipping addresses as a store
 * order. The order id is also the number customers see. A shipment's carrier is its
 * `tracking_carrier`, else its `shipping_provider`; its lines are its items by
 * `order_product_id`; its address is the order address it ships to.
 */
export function bigcommerceStoreOrder(
  order: Json,
  products: readonly Json[],
  shipments: readonly Json[],
  shippingAddresses: readonly Json[],
): StoreOrder | null {
  const id = typeof order.id === 'number' || typeof order.id === 'string' ? String(order.id) : null;
  const updatedAt = date(order.date_modified);
  if (!id || !/^\d+$/.test(id) || !updatedAt) return null;
  const billing = object(order.billing_address);
  const addresses = new Map(shippingAddresses.map((a) => [String(a.id), a]));
  const firstShipping = shippingAddresses[0] ?? null;
  const status = str(order.status);
  return {
    platform: 'bigcommerce',
    id,
    number: id,
    createdAt: date(order.date_created),
    updatedAt,
    email: str(billing?.email) ?? str(firstShipping?.email),
    phone: str(billing?.phone) ?? str(firstShipping?.phone),
    currency: str(order.currency_code),
    subtotal: money(order.subtotal_inc_tax),
    total: money(order.total_inc_tax),
    status: status ? { code: status, title: status } : null,
    shippingAddress: address(firstShipping ?? billing),
    billingAddress: address(billing),
    url: null,
    lines: products.map(line).filter((l): l is StoreOrderLine => l !== null),
    shipments: shipments
      .map((s) => shipment(s, addresses))
      .filter((s): s is StoreShipment => s !== null),
  };
}

function line(product: Json): StoreOrderLine | null {
  if (typeof product.id !== 'number' && typeof product.id !== 'string') return null;
  const options: Record<string, string> = {};
  for (const option of Array.isArray(product.product_options) ? product.product_options : []) {
    const name = str(object(option)?.display_name);
    const value = str(object(option)?.display_value);
    if (name && value) options[name] = value;
  }
  return {
    id: String(product.id),
    name: str(product.name),
    sku: str(product.sku),
    quantity: typeof product.quantity === 'number' ? product.quantity : 0,
    price: money(product.price_inc_tax) ?? money(product.base_price),
    productId: positiveId(product.product_id),
    variantId: positiveId(product.variant_id),
    options,
    imageUrl: null,
  };
}

function shipment(s: Json, addresses: ReadonlyMap<string, Json>): StoreShipment | null {
  if (typeof s.id !== 'number' && typeof s.id !== 'string') return null;
  const number = str(s.tracking_number);
  const own = object(s.shipping_address) ?? addresses.get(String(s.order_address_id)) ?? null;
  return {
    id: String(s.id),
    trackingNumbers: number ? [number] : [],
    carrierName: str(s.tracking_carrier) ?? str(s.shipping_provider),
    trackingUrl: str(s.tracking_link),
    createdAt: date(s.date_created),
    lines: (Array.isArray(s.items) ? s.items : [])
      .map((i) => object(i))
      .filter(
        (i): i is Json =>
          i !== null &&
          (typeof i.order_product_id === 'number' || typeof i.order_product_id === 'string'),
      )
      .map((i) => ({
        lineId: String(i.order_product_id),
        quantity: typeof i.quantity === 'number' ? i.quantity : 0,
      })),
    address: own ? address(own) : null,
  };
}

function address(a: Json | null): StoreAddress | null {
  if (!a) return null;
  return {
    firstName: str(a.first_name),
    lastName: str(a.last_name),
    company: str(a.company),
    addressLine1: str(a.street_1),
    addressLine2: str(a.street_2),
    city: str(a.city),
    state: str(a.state),
    postcode: str(a.zip),
    country: str(a.country),
    countryIso2: str(a.country_iso2),
    phone: str(a.phone),
  };
}

/** "12.5000" -> "12.50": BigCommerce prints four decimals. */
function money(value: unknown): string | null {
  const text = str(value);
  if (!text || !/^-?\d+(\.\d+)?$/.test(text)) return null;
  return text.replace(/(\.\d\d\d*?)0+$/, '$1').replace(/\.(\d)$/, '.$10');
}

function positiveId(value: unknown): string | null {
  return typeof value === 'number' && value > 0 ? String(value) : null;
}

/** RFC 2822 (`Tue, 20 Nov 2012 00:00:00 +0000`) or ISO 8601. */
function date(value: unknown): Date | null {
  if (typeof value !== 'string' || value === '') return null;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : new Date(at);
}

function object(value: unknown): Json | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Json)
    : null;
}

function str(value: unknown): string | null {
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}
