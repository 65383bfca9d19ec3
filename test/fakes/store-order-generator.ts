import { seededRandom, type Random } from '../../src/tracking/carriers/tracking-number-generator';

/**
 * Deterministic store orders for the store fakes (Shopify, WooCommerce, BigCommerce): the same
 * seed gives the same orders, each fake renders them in its platform's shape. Orders are
 * changed one after the other from `start` (a few seconds apart, some in the same second, as
 * in a busy store), each with 1-3 lines and `fulfillments.min`-`max` parcels carrying all its
 * units between them. Tracking numbers are the sandbox's `TM<status><n>TM` numbers (unique per
 * parcel, statuses varied) so imported shipments track without a provider.
 */
export interface SeedAddress {
  firstName: string;
  lastName: string;
  company: string | null;
  line1: string;
  line2: string | null;
  city: string;
  state: string;
  postcode: string;
  country: string;
  countryIso2: string;
  phone: string;
}

export interface SeedLine {
  index: number;
  sku: string;
  name: string;
  qty: number;
  /** Unit price, 2 decimals. */
  price: string;
  options: Record<string, string>;
}

export interface SeedFulfillment {
  index: number;
  trackingNumber: string;
  /** As a merchant would pick it in the store (some map to our carriers, some not). */
  carrierName: string | null;
  createdAt: Date;
  lines: Array<{ lineIndex: number; qty: number }>;
}

export interface SeedOrder {
  index: number;
  /** Customer-facing number, from 1001. */
  number: string;
  createdAt: Date;
  updatedAt: Date;
  email: string;
  currency: string;
  subtotal: string;
  total: string;
  address: SeedAddress;
  lines: SeedLine[];
  fulfillments: SeedFulfillment[];
}

export interface SeedOptions {
  count: number;
  seed?: number;
  /** Parcels per order; default 1-3. */
  fulfillments?: { min: number; max: number };
  /** When the first order changed; default 2024-05-01T00:00:00Z. */
  start?: Date;
  /** Order numbers start here; default 1001. */
  firstNumber?: number;
}

const FIRST_NAMES = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Ken'];
const LAST_NAMES = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Allen'];
const PRODUCTS = [
  ['JACKET-BLK', 'Black Leather Jacket', '129.00'],
  ['SCARF-RED', 'Red Wool Scarf', '24.50'],
  ['MUG-01', 'Enamel Mug', '12.00'],
  ['BOOT-42', 'Hiking Boots', '89.90'],
  ['CAP-BLU', 'Blue Cap', '15.00'],
] as const;
const PLACES = [
  ['Springfield', 'IL', '62701', 'US', 'United States', '+12025550143'],
  ['Portland', 'OR', '97201', 'US', 'United States', '+15035550199'],
  ['Toronto', 'ON', 'M5H 2N2', 'CA', 'Canada', '+14165550123'],
  ['Manchester', 'England', 'M1 1AE', 'GB', 'United Kingdom', '+447700900123'],
] as const;
const CARRIER_NAMES = ['UPS', 'USPS', 'FedEx', 'DHL Express', 'Royal Mail', 'Canada Post', null];
/** Sandbox prefixes (tracking statuses): in transit, delivered, out for delivery, pre-transit. */
const SANDBOX_PREFIXES = ['102', '200', '204', '418'];

export function generateSeedOrders(options: SeedOptions): SeedOrder[] {
  const rnd = seededRandom(options.seed ?? 1);
  const { min, max } = options.fulfillments ?? { min: 1, max: 3 };
  const firstNumber = options.firstNumber ?? 1001;
  let at = (options.start ?? new Date('2024-05-01T00:00:00Z')).getTime();
  const orders: SeedOrder[] = [];
  for (let index = 0; index < options.count; index++) {
    // 0 to 6 s apart: about one order in seven shares its second with the one before.
    if (index > 0) at += Math.floor(rnd() * 7) * 1000;
    orders.push(seedOrder(rnd, index, firstNumber + index, new Date(at), min, max));
  }
  return orders;
}

function seedOrder(
  rnd: Random,
  index: number,
  number: number,
  updatedAt: Date,
  minParcels: number,
  maxParcels: number,
): SeedOrder {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)];
  const parcels = minParcels + Math.floor(rnd() * (maxParcels - minParcels + 1));
  const lineCount = 1 + Math.floor(rnd() * 3);
  const lines: SeedLine[] = [];
  for (let i = 0; i < lineCount; i++) {
    const [sku, name, price] = PRODUCTS[(index + i) % PRODUCTS.length];
    lines.push({
      index: i,
      sku,
      name,
      qty: 1 + Math.floor(rnd() * 3),
      price,
      options: i % 2 === 0 ? { Size: pick(['S', 'M', 'L']) } : {},
    });
  }
  // Every parcel carries at least one unit: add units to the first line when short.
  const units = lines.reduce((sum, l) => sum + l.qty, 0);
  if (units < parcels) lines[0].qty += parcels - units;
  const fulfillments: SeedFulfillment[] = Array.from({ length: parcels }, (_, f) => ({
    index: f,
    trackingNumber: `TM${SANDBOX_PREFIXES[(index + f) % SANDBOX_PREFIXES.length]}${String(
      number,
    ).padStart(7, '0')}${f + 1}TM`,
    carrierName: pick(CARRIER_NAMES),
    createdAt: new Date(updatedAt.getTime() - (parcels - f) * 3600_000),
    lines: [],
  }));
  // Units go round-robin over the parcels.
  let next = 0;
  for (const line of lines) {
    for (let u = 0; u < line.qty; u++) {
      const parcel = fulfillments[next++ % parcels];
      const entry = parcel.lines.find((l) => l.lineIndex === line.index);
      if (entry) entry.qty++;
      else parcel.lines.push({ lineIndex: line.index, qty: 1 });
    }
  }
  const cents = lines.reduce((sum, l) => sum + Math.round(Number(l.price) * 100) * l.qty, 0);
  const [city, state, postcode, countryIso2, country, phone] = pick(PLACES);
  const firstName = pick(FIRST_NAMES);
  const lastName = pick(LAST_NAMES);
  return {
    index,
    number: String(number),
    createdAt: new Date(updatedAt.getTime() - 86_400_000),
    updatedAt,
    email: `${firstName}.${lastName}.${number}@example.com`.toLowerCase(),
    currency: countryIso2 === 'GB' ? 'GBP' : countryIso2 === 'CA' ? 'CAD' : 'USD',
    subtotal: (cents / 100).toFixed(2),
    total: ((cents + 500) / 100).toFixed(2),
    address: {
      firstName,
      lastName,
      company: index % 5 === 0 ? 'Analytical Engines Ltd' : null,
      line1: `${1 + Math.floor(rnd() * 200)} Market Street`,
      line2: index % 4 === 0 ? 'Apt 2' : null,
      city,
      state,
      postcode,
      country,
      countryIso2,
      phone,
    },
    lines,
    fulfillments,
  };
}

/** Seconds-resolution ISO 8601 with Z, as the stores print times. */
export function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
