import type { StoreOrder, StoreShipment } from '../store-platform';
import { planOrderImport, recordDigest, type ImportedLink } from './import-plan';
import { mapStoreOrder } from './order-mapping';

const parcel = (
  id: string,
  number: string,
  lines = [{ lineId: 'L1', quantity: 1 }],
): StoreShipment => ({
  id,
  trackingNumbers: [number],
  carrierName: 'UPS',
  trackingUrl: null,
  createdAt: null,
  lines,
  address: null,
});

const order = (fields: Partial<StoreOrder> = {}): StoreOrder => ({
  platform: 'woocommerce',
  id: '77',
  number: '1001',
  createdAt: null,
  updatedAt: new Date('2024-05-02T10:00:00Z'),
  email: 'ada@example.com',
  phone: null,
  currency: 'EUR',
  subtotal: '10.00',
  total: '12.00',
  status: { code: 'processing', title: 'Processing' },
  shippingAddress: null,
  billingAddress: null,
  url: null,
  lines: [
    {
      id: 'L1',
      name: 'Mug',
      sku: 'MUG',
      quantity: 2,
      price: '5.00',
      productId: null,
      variantId: null,
      options: {},
      imageUrl: null,
    },
  ],
  shipments: [parcel('P1', 'AAA111')],
  ...fields,
});

/** The links an import of `o` leaves (as the importer saves them). */
function linksOf(o: StoreOrder): ImportedLink[] {
  const r = mapStoreOrder(o);
  return [
    {
      kind: 'order',
      storeId: r.order.externalSourceSyncId,
      recordId: 'o-1',
      digest: recordDigest(r.order),
      trackingNumber: null,
    },
    ...r.items.map((i, n) => ({
      kind: 'order_item' as const,
      storeId: i.externalSourceSyncId,
      recordId: `i-${n}`,
      digest: recordDigest(i),
      trackingNumber: null,
    })),
    ...r.shipments.map((s, n) => ({
      kind: 'shipment' as const,
      storeId: s.externalSourceSyncId,
      recordId: `s-${n}`,
      digest: recordDigest(s),
      trackingNumber: s.trackingNumber,
    })),
  ];
}

const woo = { parcelIdsFollowNumbers: true };
const shopify = { parcelIdsFollowNumbers: false };

describe('planOrderImport', () => {
  it('creates everything the first time', () => {
    const plan = planOrderImport(mapStoreOrder(order()), [], woo);
    expect(plan.unchanged).toBe(false);
    expect(plan.order).toMatchObject({ existing: null, write: true });
    expect(plan.items.map((i) => [i.existing, i.write])).toEqual([[null, true]]);
    expect(plan.shipments.map((s) => [s.existing, s.write, s.moved])).toEqual([
      [null, true, false],
    ]);
  });

  it('writes nothing for an order imported as it is (running twice creates nothing twice)', () => {
    const plan = planOrderImport(mapStoreOrder(order()), linksOf(order()), woo);
    expect(plan.unchanged).toBe(true);
    expect(plan.removedItems).toEqual([]);
    expect(plan.removedShipments).toEqual([]);
  });

  it('writes only the records the store changed', () => {
    const plan = planOrderImport(
      mapStoreOrder(order({ email: 'grace@example.com' })),
      linksOf(order()),
      woo,
    );
    expect(plan.unchanged).toBe(false);
    expect(plan.order).toMatchObject({
      write: true,
      existing: expect.objectContaining({ recordId: 'o-1' }),
    });
    expect(plan.items.every((i) => !i.write)).toBe(true);
    // The parcel's contact comes from the order: it changed too.
    expect(plan.shipments.map((s) => s.write)).toEqual([true]);
  });

  it('moves a shipment whose parcel got another number (same parcel id)', () => {
    const before = order({ platform: 'shopify' });
    const after = order({ platform: 'shopify', shipments: [parcel('P1', 'BBB222')] });
    const plan = planOrderImport(mapStoreOrder(after), linksOf(before), shopify);
    expect(plan.shipments).toEqual([
      expect.objectContaining({
        moved: true,
        write: true,
        existing: expect.objectContaining({ recordId: 's-0' }),
      }),
    ]);
    expect(plan.removedShipments).toEqual([]);
  });

  it('pairs a WooCommerce tracking item renewed with a new number to the shipment it replaces', () => {
    const after = order({ shipments: [parcel('P9', 'BBB222')] });
    const plan = planOrderImport(mapStoreOrder(after), linksOf(order()), woo);
    expect(plan.shipments).toEqual([
      expect.objectContaining({
        moved: true,
        write: true,
        existing: expect.objectContaining({ storeId: 'P1', recordId: 's-0' }),
      }),
    ]);
    expect(plan.removedShipments).toEqual([]);
  });

  it('removes a parcel gone where ids are stable, and creates the new one', () => {
    const after = order({ platform: 'shopify', shipments: [parcel('P9', 'BBB222')] });
    const plan = planOrderImport(
      mapStoreOrder(after),
      linksOf(order({ platform: 'shopify' })),
      shopify,
    );
    expect(plan.shipments).toEqual([expect.objectContaining({ existing: null, moved: false })]);
    expect(plan.removedShipments.map((l) => l.recordId)).toEqual(['s-0']);
  });

  it('takes a new parcel id with the same number as the same parcel, on any platform', () => {
    const after = order({ platform: 'shopify', shipments: [parcel('P9', 'aaa111')] });
    const plan = planOrderImport(
      mapStoreOrder(after),
      linksOf(order({ platform: 'shopify' })),
      shopify,
    );
    expect(plan.shipments).toEqual([
      expect.objectContaining({
        moved: true,
        existing: expect.objectContaining({ storeId: 'P1' }),
      }),
    ]);
    expect(plan.removedShipments).toEqual([]);
  });

  it('removes lines and parcels the store dropped when nothing replaces them', () => {
    const two = order({
      lines: [...order().lines, { ...order().lines[0], id: 'L2', name: 'Cap' }],
      shipments: [parcel('P1', 'AAA111'), parcel('P2', 'CCC333', [{ lineId: 'L2', quantity: 1 }])],
    });
    const plan = planOrderImport(mapStoreOrder(order()), linksOf(two), woo);
    expect(plan.removedItems.map((l) => l.storeId)).toEqual(['L2']);
    expect(plan.removedShipments.map((l) => l.storeId)).toEqual(['P2']);
    expect(plan.shipments.map((s) => s.write)).toEqual([false]);
  });

  it('rewrites the shipments of a recreated order and of recreated lines', () => {
    const links = linksOf(order()).filter((l) => l.kind === 'shipment');
    const plan = planOrderImport(mapStoreOrder(order()), links, woo);
    expect(plan.order.write).toBe(true);
    expect(plan.items.map((i) => i.existing)).toEqual([null]);
    expect(plan.shipments.map((s) => [s.write, s.moved])).toEqual([[true, false]]);
  });
});

describe('recordDigest', () => {
  it('ignores key order and undefined members, not values', () => {
    expect(recordDigest({ a: 1, b: [1, { c: 2, d: undefined }] })).toBe(
      recordDigest({ b: [1, { c: 2 }], a: 1 }),
    );
    expect(recordDigest({ a: 1 })).not.toBe(recordDigest({ a: 2 }));
    expect(recordDigest({ a: null })).not.toBe(recordDigest({ a: 'null' }));
  });
});
