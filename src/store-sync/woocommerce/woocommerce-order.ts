import type { StoreAddress, StoreOrder, StoreOrderLine, StoreShipment } from '../store-platform';

type Json = Readonly<Record<string, unknown>>;

/** Titles of WooCommerce's built-in order statuses; others are shown as their slug. */
const STATUS_TITLES: Readonly<Record<string, string>> = {
  pending: 'Pending payment',
  processing: 'Processing',
  'on-hold': 'On hold',
  completed: 'Completed',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
  failed: 'Failed',
  'checkout-draft': 'Draft',
};

/** An item of the Shipment Tracking extension [official: woocommerce.com shipment-tracking REST]. */
export interface WooTrackingItem {
  readonly tracking_id?: unknown;
  readonly tracking_provider?: unknown;
  readonly tracking_link?: unknown;
  readonly tracking_number?: unknown;
  readonly date_shipped?: unknown;
}

/**
 * A WooCommerce order (REST v3) as a store order. WooCommerce keeps no parcels: they come from
 * the Shipment Tracking extension's items (`tracking`, one parcel each, no lines: the extension
 * does not say which items travel) and from an order meta key the workflow names (a string of
 * numbers separated by commas or spaces, a list of them, or a list of objects with
 * `tracking_number` and `tracking_provider`), each number of the meta a parcel
 * `{orderId}-meta-{n}`. A number in both is taken once, from the extension.
 */
export function woocommerceStoreOrder(
  order: Json,
  tracking: readonly WooTrackingItem[],
  trackingMetaKey: string | null,
): StoreOrder | null {
  const id = typeof order.id === 'number' || typeof order.id === 'string' ? String(order.id) : null;
  const updatedAt = gmt(order.date_modified_gmt);
  if (!id || !/^\d+$/.test(id) || !updatedAt) return null;
  const billing = object(order.billing);
  const shipping = object(order.shipping);
  const lines = (Array.isArray(order.line_items) ? order.line_items : [])
    .map((l) => line(object(l)))
    .filter((l): l is StoreOrderLine => l !== null);
  const status = str(order.status);
  const shipments: StoreShipment[] = [];
  const numbers = new Set<string>();
  for (const item of tracking) {
    const number = str(item.tracking_number);
    const itemId = str(item.tracking_id);
    if (!number || !itemId) continue;
    numbers.add(number);
    shipments.push({
      id: itemId,
      trackingNumbers: [number],
      carrierName: str(item.tracking_provider),
      trackingUrl: str(item.tracking_link),
      createdAt: gmt(item.date_shipped),
      lines: [],
      address: null,
    });
  }
  metaNumbers(order.meta_data, trackingMetaKey).forEach((entry, index) => {
    if (numbers.has(entry.number)) return;
    numbers.add(entry.number);
    shipments.push({
      id: `${id}-meta-${index + 1}`,
      trackingNumbers: [entry.number],
      carrierName: entry.provider,
      trackingUrl: null,
      createdAt: null,
      lines: [],
      address: null,
    });
  });
  return {
    platform: 'woocommerce',
    id,
    number: str(order.number) ?? id,
    createdAt: gmt(order.date_created_gmt),
    updatedAt,
    email: str(billing?.email),
    phone: str(billing?.phone) ?? str(shipping?.phone),
    currency: str(order.currency),
    subtotal: sum(lines, order.line_items),
    total: str(order.total),
    status: status ? { code: status, title: STATUS_TITLES[status] ?? status } : null,
    shippingAddress: address(shipping),
    billingAddress: address(billing),
    url: null,
    lines,
    shipments,
  };
}

function line(item: Json | null): StoreOrderLine | null {
  if (!item || (typeof item.id !== 'number' && typeof item.id !== 'string')) return null;
  const options: Record<string, string> = {};
  for (const meta of Array.isArray(item.meta_data) ? item.meta_data : []) {
    const m = object(meta);
    const key = str(m?.display_key) ?? str(m?.key);
    const value = str(m?.display_value) ?? str(m?.value);
    // Keys starting with "_" are WooCommerce's own bookkeeping, not options.
    if (key && value && !key.startsWith('_')) options[key] = value;
  }
  const variation =
    typeof item.variation_id === 'number' && item.variation_id > 0
      ? String(item.variation_id)
      : null;
  return {
    id: String(item.id),
    name: str(item.name),
    sku: str(item.sku),
    quantity: typeof item.quantity === 'number' ? item.quantity : 0,
    price:
      typeof item.price === 'number' || typeof item.price === 'string' ? decimal(item.price) : null,
    productId:
      typeof item.product_id === 'number' && item.product_id > 0 ? String(item.product_id) : null,
    variantId: variation,
    options,
    imageUrl: str(object(item.image)?.src),
  };
}

/** Tracking numbers of the order meta key, with the provider when the value names one. */
export function metaNumbers(
  meta: unknown,
  key: string | null,
): Array<{ number: string; provider: string | null }> {
  if (!key || !Array.isArray(meta)) return [];
  const out: Array<{ number: string; provider: string | null }> = [];
  const add = (value: unknown, provider: string | null = null) => {
    if (typeof value === 'string')
      for (const number of value.split(/[\s,;]+/).filter(Boolean)) out.push({ number, provider });
    else if (Array.isArray(value)) value.forEach((v) => add(v));
    else if (object(value)) {
      const o = object(value)!;
      add(o.tracking_number, str(o.tracking_provider) ?? str(o.custom_tracking_provider));
    }
  };
  for (const entry of meta) if (object(entry)?.key === key) add(object(entry)!.value);
  return out;
}

function address(a: Json | null): StoreAddress | null {
  if (!a) return null;
  const country = str(a.country);
  return {
    firstName: str(a.first_name),
    lastName: str(a.last_name),
    company: str(a.company),
    addressLine1: str(a.address_1),
    addressLine2: str(a.address_2),
    city: str(a.city),
    state: str(a.state),
    postcode: str(a.postcode),
    // WooCommerce keeps the country as its ISO code.
    country: null,
    countryIso2: country && /^[A-Za-z]{2}$/.test(country) ? country : null,
    phone: str(a.phone),
  };
}

/** The lines' subtotals added in cents (WooCommerce has no order subtotal field). */
function sum(lines: readonly StoreOrderLine[], raw: unknown): string | null {
  if (!Array.isArray(raw) || lines.length === 0) return null;
  let cents = 0;
  for (const item of raw) {
    const subtotal = str(object(item)?.subtotal);
    if (!subtotal || !/^-?\d+(\.\d+)?$/.test(subtotal)) return null;
    cents += Math.round(Number(subtotal) * 100);
  }
  return (cents / 100).toFixed(2);
}

function decimal(value: number | string): string | null {
  const text = typeof value === 'number' ? String(value) : value.trim();
  return /^-?\d+(\.\d+)?$/.test(text) ? text : null;
}

/** WooCommerce's `*_gmt` times have no zone: they are UTC. */
function gmt(value: unknown): Date | null {
  if (typeof value !== 'string' || value === '') return null;
  const at = Date.parse(
    /[zZ]|[+-]\d\d:?\d\d$/.test(value)
      ? value
      : `${value}${value.length === 10 ? 'T00:00:00' : ''}Z`,
  );
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
