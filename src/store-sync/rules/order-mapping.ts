import { isEmail } from 'class-validator';
import * as countries from 'i18n-iso-countries';
import type { Address } from '../../addresses/address';
import { normalizeAddress } from '../../addresses/address-rules';
import { isValidPhone } from '../../shipments/contact-rules';
import type { StoreAddress, StoreOrder, StoreShipment } from '../store-platform';
import { carrierCodeForStoreName } from './carrier-names';
import { normalizeTrackingNumber } from './tracking-number';

/** Our Address's fields (src/common/address.ts), every one optional. */
export type ImportedAddress = { [K in keyof Address]: string | null };

/** An order as POST /orders takes it (fields of src/orders/order.entity.ts). */
export interface ImportedOrder {
  readonly externalSourceSyncId: string;
  readonly orderNumber: string;
  readonly externalSourceUrl: string | null;
  readonly email: string | null;
  readonly phoneNumber: string | null;
  /** Null: the store gave none (the order keeps our default). */
  readonly currency: string | null;
  readonly subtotal: string;
  readonly total: string;
  readonly orderStatus: { readonly code: string; readonly title: string } | null;
  readonly shippingAddress: ImportedAddress;
  readonly billingAddress: ImportedAddress;
}

/** An order item (src/order-items/order-item.entity.ts). */
export interface ImportedOrderItem {
  readonly externalSourceSyncId: string;
  readonly productName: string | null;
  readonly productSku: string | null;
  readonly productOptions: Readonly<Record<string, string>>;
  readonly qty: number;
  readonly price: string;
  readonly externalProductId: string | null;
  readonly imageUrl: string | null;
}

/** A shipment (src/shipments/shipment.entity.ts) with its items (src/shipment-items). */
export interface ImportedShipment {
  readonly externalSourceSyncId: string;
  readonly trackingNumber: string;
  /** Our carrier code from the store's carrier name; null: detection decides. */
  readonly originCarrier: string | null;
  readonly email: string | null;
  readonly phoneNumber: string | null;
  readonly address: ImportedAddress;
  readonly orderNumbers: readonly string[];
  /** The order items in this parcel (by their store id) and how many of each. */
  readonly items: ReadonlyArray<{ readonly orderItemSyncId: string; readonly qty: number }>;
}

/** Something of the store order that could not be imported as is, by its store id. */
export interface ImportProblem {
  readonly storeRecordId: string;
  readonly message: string;
}

export interface ImportedOrderRecords {
  readonly order: ImportedOrder;
  readonly items: readonly ImportedOrderItem[];
  readonly shipments: readonly ImportedShipment[];
  readonly problems: readonly ImportProblem[];
}

const DECIMAL = /^-?\d+(\.\d+)?$/;
const LIMITS = { short: 255, postcode: 64, name: 1000, url: 2048, email: 1000 };

/**
 * A store order as our records: the order (number, contact, totals, currency, status,
 * addresses), its lines as order items, each parcel with a tracking number as a shipment
 * (carrier from the store's name where it maps, else none so detection decides; address from
 * the parcel or the order; contact from the order) and the parcel's lines as shipment items.
 * Store ids become `externalSourceSyncId`s, so importing the same order again finds the same
 * records. Values our resources would refuse are cleaned (tracking numbers, blank fields,
 * lengths) or left out (invalid e-mail or phone): a store's typo costs one field, not the
 * order. What cannot be imported at all is listed in `problems`.
 *
 * A parcel with several tracking numbers (a Shopify fulfillment can have them) becomes one
 * shipment per number: the first keeps the parcel's id and its items, the others are
 * `{id}:2`, `{id}:3`... A number already given to an earlier parcel of the order is imported
 * once. Items never exceed what is left of their order line (the shipment items' quantity rule).
 */
export function mapStoreOrder(store: StoreOrder): ImportedOrderRecords {
  const problems: ImportProblem[] = [];
  const shippingAddress = importedAddress(store.shippingAddress);
  const billingAddress = importedAddress(store.billingAddress);
  const country = shippingAddress.countryIso2 ?? billingAddress.countryIso2;
  const phoneNumber = phone(
    store.phone ?? store.shippingAddress?.phone ?? store.billingAddress?.phone ?? null,
    country,
  );
  const email = emailOrNull(store.email);
  const orderNumber = text(store.number?.replace(/^\s*#/, ''), LIMITS.short) ?? store.id;
  const order: ImportedOrder = {
    externalSourceSyncId: store.id,
    orderNumber,
    externalSourceUrl: httpUrl(store.url),
    email,
    phoneNumber,
    currency: /^[A-Za-z]{3}$/.test(store.currency ?? '') ? store.currency!.toUpperCase() : null,
    subtotal: decimal(store.subtotal),
    total: decimal(store.total),
    orderStatus: store.status
      ? {
          code: statusCode(store.status.code),
          title: text(store.status.title, LIMITS.short) ?? store.status.code,
        }
      : null,
    shippingAddress,
    billingAddress,
  };

  const items: ImportedOrderItem[] = store.lines.map((line) => ({
    externalSourceSyncId: line.id,
    productName: text(line.name, LIMITS.name),
    productSku: text(line.sku, LIMITS.short),
    productOptions: options(line.options),
    qty: Number.isInteger(line.quantity) && line.quantity > 0 ? line.quantity : 0,
    price: decimal(line.price),
    externalProductId: text(line.productId, LIMITS.short),
    imageUrl: httpUrl(line.imageUrl),
  }));
  const left = new Map(items.map((item) => [item.externalSourceSyncId, item.qty]));

  const shipments: ImportedShipment[] = [];
  const numbers = new Map<string, string>();
  for (const parcel of store.shipments) {
    const address = parcel.address ? importedAddress(parcel.address) : shippingAddress;
    let first = true;
    parcel.trackingNumbers.forEach((raw, index) => {
      const trackingNumber = normalizeTrackingNumber(raw);
      if (!trackingNumber) {
        problems.push({
          storeRecordId: parcel.id,
          message: `"${raw.slice(0, 100)}" is not a tracking number (letters and digits only)`,
        });
        return;
      }
      const earlier = numbers.get(trackingNumber.toUpperCase());
      if (earlier !== undefined) {
        if (earlier !== parcel.id)
          problems.push({
            storeRecordId: parcel.id,
            message: `tracking number ${trackingNumber} is already the parcel ${earlier}'s`,
          });
        return;
      }
      numbers.set(trackingNumber.toUpperCase(), parcel.id);
      shipments.push({
        externalSourceSyncId: index === 0 ? parcel.id : `${parcel.id}:${index + 1}`,
        trackingNumber,
        originCarrier: carrierCodeForStoreName(parcel.carrierName),
        email,
        phoneNumber: phone(parcel.address?.phone ?? null, address.countryIso2) ?? phoneNumber,
        address,
        orderNumbers: [orderNumber],
        items: first ? parcelItems(parcel, left, problems) : [],
      });
      first = false;
    });
  }
  return { order, items, shipments, problems };
}

/** The parcel's lines as shipment items, each within what is left of its order line. */
function parcelItems(
  parcel: StoreShipment,
  left: Map<string, number>,
  problems: ImportProblem[],
): Array<{ orderItemSyncId: string; qty: number }> {
  const wanted = new Map<string, number>();
  for (const line of parcel.lines) {
    if (!Number.isInteger(line.quantity) || line.quantity <= 0) continue;
    wanted.set(line.lineId, (wanted.get(line.lineId) ?? 0) + line.quantity);
  }
  const items: Array<{ orderItemSyncId: string; qty: number }> = [];
  for (const [lineId, quantity] of wanted) {
    const available = left.get(lineId);
    if (available === undefined) {
      problems.push({
        storeRecordId: parcel.id,
        message: `line ${lineId} is not a line of the order`,
      });
      continue;
    }
    const qty = Math.min(quantity, available);
    if (qty < quantity)
      problems.push({
        storeRecordId: parcel.id,
        message: `line ${lineId}: ${quantity} shipped but only ${available} left of the order line`,
      });
    if (qty === 0) continue;
    left.set(lineId, available - qty);
    items.push({ orderItemSyncId: lineId, qty });
  }
  return items;
}

export function importedAddress(store: StoreAddress | null): ImportedAddress {
  const address: ImportedAddress = {
    addressLine1: text(store?.addressLine1, LIMITS.short),
    addressLine2: text(store?.addressLine2, LIMITS.short),
    city: text(store?.city, LIMITS.short),
    company: text(store?.company, LIMITS.short),
    country: text(store?.country, LIMITS.short),
    countryIso2: /^[A-Za-z]{2}$/.test(store?.countryIso2?.trim() ?? '')
      ? store!.countryIso2!.trim().toUpperCase()
      : null,
    firstName: text(store?.firstName, LIMITS.short),
    lastName: text(store?.lastName, LIMITS.short),
    postcode: text(store?.postcode, LIMITS.postcode),
    state: text(store?.state, LIMITS.short),
  };
  // A code the countries list does not know would make the whole order invalid: dropped.
  if (address.countryIso2 && !countries.isValid(address.countryIso2)) address.countryIso2 = null;
  // Fills the country's name from its code (or the code from an English name).
  normalizeAddress(address as Address);
  return address;
}

/** A status code of ours from the store's (`Awaiting Fulfillment` -> `awaiting_fulfillment`). */
export function statusCode(code: string): string {
  const slug = code
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return (slug || 'unknown').slice(0, LIMITS.short);
}

function text(value: string | null | undefined, max: number): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed.slice(0, max);
}

function decimal(value: string | null | undefined): string {
  const trimmed = typeof value === 'string' ? value.trim() : '';
  return DECIMAL.test(trimmed) ? trimmed : '0';
}

function emailOrNull(value: string | null | undefined): string | null {
  const trimmed = text(value, LIMITS.email);
  return trimmed && isEmail(trimmed) ? trimmed : null;
}

function phone(value: string | null, countryIso2: string | null): string | null {
  const trimmed = text(value, 64);
  return trimmed && isValidPhone(trimmed, countryIso2) ? trimmed : null;
}

function httpUrl(value: string | null | undefined): string | null {
  const trimmed = text(value, LIMITS.url + 1);
  if (!trimmed || trimmed.length > LIMITS.url || !/^https?:\/\/\S+$/i.test(trimmed)) return null;
  return trimmed;
}

function options(values: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    const name = text(key, LIMITS.short);
    if (name && typeof value === 'string') out[name] = value.trim().slice(0, LIMITS.short);
  }
  return out;
}
