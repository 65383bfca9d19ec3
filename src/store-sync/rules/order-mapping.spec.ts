import type { StoreAddress, StoreOrder, StoreShipment } from '../store-platform';
import { importedAddress, mapStoreOrder, statusCode } from './order-mapping';

const address = (fields: Partial<StoreAddress> = {}): StoreAddress => ({
  firstName: 'Ada',
  lastName: 'Lovelace',
  company: null,
  addressLine1: '12 Market Street',
  addressLine2: null,
  city: 'Springfield',
  state: 'IL',
  postcode: '62701',
  country: 'United States',
  countryIso2: 'US',
  phone: null,
  ...fields,
});

const parcel = (fields: Partial<StoreShipment> = {}): StoreShipment => ({
  id: '900',
  trackingNumbers: ['1Z999AA10123456784'],
  carrierName: 'UPS',
  trackingUrl: null,
  createdAt: new Date('2024-05-02T10:00:00Z'),
  lines: [{ lineId: 'L1', quantity: 2 }],
  address: null,
  ...fields,
});

const order = (fields: Partial<StoreOrder> = {}): StoreOrder => ({
  platform: 'shopify',
  id: '5001',
  number: '#1001',
  createdAt: new Date('2024-05-01T09:00:00Z'),
  updatedAt: new Date('2024-05-02T10:00:00Z'),
  email: 'ada@example.com',
  phone: '+12025550143',
  currency: 'usd',
  subtotal: '59.80',
  total: '64.80',
  status: { code: 'PARTIALLY_FULFILLED', title: 'Partially fulfilled' },
  shippingAddress: address(),
  billingAddress: address({ addressLine1: '1 Bill Road' }),
  url: 'https://shop.example/admin/orders/5001',
  lines: [
    {
      id: 'L1',
      name: 'Black Leather Jacket',
      sku: 'JACKET-BLK',
      quantity: 2,
      price: '19.90',
      productId: '77',
      variantId: '78',
      options: { Size: 'L' },
      imageUrl: 'https://cdn.example/jacket.png',
    },
    {
      id: 'L2',
      name: 'Scarf',
      sku: null,
      quantity: 1,
      price: '20.00',
      productId: null,
      variantId: null,
      options: {},
      imageUrl: 'javascript:alert(1)',
    },
  ],
  shipments: [parcel()],
  ...fields,
});

describe('mapStoreOrder', () => {
  it('maps the order, its lines and its parcel with items', () => {
    const { order: o, items, shipments, problems } = mapStoreOrder(order());
    expect(o).toEqual({
      externalSourceSyncId: '5001',
      orderNumber: '1001',
      externalSourceUrl: 'https://shop.example/admin/orders/5001',
      email: 'ada@example.com',
      phoneNumber: '+12025550143',
      currency: 'USD',
      subtotal: '59.80',
      total: '64.80',
      orderStatus: { code: 'partially_fulfilled', title: 'Partially fulfilled' },
      shippingAddress: {
        addressLine1: '12 Market Street',
        addressLine2: null,
        city: 'Springfield',
        company: null,
        country: 'United States',
        countryIso2: 'US',
        firstName: 'Ada',
        lastName: 'Lovelace',
        postcode: '62701',
        state: 'IL',
      },
      billingAddress: expect.objectContaining({ addressLine1: '1 Bill Road' }),
    });
    expect(items).toEqual([
      {
        externalSourceSyncId: 'L1',
        productName: 'Black Leather Jacket',
        productSku: 'JACKET-BLK',
        productOptions: { Size: 'L' },
        qty: 2,
        price: '19.90',
        externalProductId: '77',
        imageUrl: 'https://cdn.example/jacket.png',
      },
      expect.objectContaining({ externalSourceSyncId: 'L2', imageUrl: null, productSku: null }),
    ]);
    expect(shipments).toEqual([
      {
        externalSourceSyncId: '900',
        trackingNumber: '1Z999AA10123456784',
        originCarrier: 'ups',
        email: 'ada@example.com',
        phoneNumber: '+12025550143',
        address: o.shippingAddress,
        orderNumbers: ['1001'],
        items: [{ orderItemSyncId: 'L1', qty: 2 }],
      },
    ]);
    expect(problems).toEqual([]);
  });

  it('leaves the carrier to detection when the store name does not map', () => {
    const { shipments } = mapStoreOrder(order({ shipments: [parcel({ carrierName: 'Other' })] }));
    expect(shipments[0].originCarrier).toBeNull();
  });

  it('makes one shipment per tracking number, items on the first', () => {
    const { shipments, problems } = mapStoreOrder(
      order({ shipments: [parcel({ trackingNumbers: ['AAA111', 'BBB 222', 'AAA111'] })] }),
    );
    expect(
      shipments.map((s) => [s.externalSourceSyncId, s.trackingNumber, s.items.length]),
    ).toEqual([
      ['900', 'AAA111', 1],
      ['900:2', 'BBB222', 0],
    ]);
    expect(problems).toEqual([]);
  });

  it('skips parcels without tracking numbers and reports numbers it cannot take', () => {
    const { shipments, problems } = mapStoreOrder(
      order({
        shipments: [
          parcel({ id: '901', trackingNumbers: [] }),
          parcel({ id: '902', trackingNumbers: ['#?!'] }),
        ],
      }),
    );
    expect(shipments).toEqual([]);
    expect(problems).toEqual([
      { storeRecordId: '902', message: '"#?!" is not a tracking number (letters and digits only)' },
    ]);
  });

  it('imports a number shared by two parcels once and says so', () => {
    const { shipments, problems } = mapStoreOrder(
      order({ shipments: [parcel({ id: '901' }), parcel({ id: '902', lines: [] })] }),
    );
    expect(shipments.map((s) => s.externalSourceSyncId)).toEqual(['901']);
    expect(problems).toEqual([
      {
        storeRecordId: '902',
        message: "tracking number 1Z999AA10123456784 is already the parcel 901's",
      },
    ]);
  });

  it('never puts more of a line in parcels than the order has', () => {
    const { shipments, problems } = mapStoreOrder(
      order({
        shipments: [
          parcel({ id: '901', trackingNumbers: ['AAA1'], lines: [{ lineId: 'L1', quantity: 1 }] }),
          parcel({
            id: '902',
            trackingNumbers: ['AAA2'],
            lines: [
              { lineId: 'L1', quantity: 2 },
              { lineId: 'L9', quantity: 1 },
              { lineId: 'L2', quantity: 0 },
            ],
          }),
        ],
      }),
    );
    expect(shipments.map((s) => s.items)).toEqual([
      [{ orderItemSyncId: 'L1', qty: 1 }],
      [{ orderItemSyncId: 'L1', qty: 1 }],
    ]);
    expect(problems).toEqual([
      { storeRecordId: '902', message: 'line L1: 2 shipped but only 1 left of the order line' },
      { storeRecordId: '902', message: 'line L9 is not a line of the order' },
    ]);
  });

  it('uses the parcel address when the store gives one', () => {
    const own = address({ city: 'Paris', countryIso2: 'FR', country: null, state: null });
    const { shipments } = mapStoreOrder(order({ shipments: [parcel({ address: own })] }));
    expect(shipments[0].address).toEqual(
      expect.objectContaining({ city: 'Paris', countryIso2: 'FR', country: 'France' }),
    );
  });

  it('drops contact values our resources would refuse instead of the order', () => {
    const { order: o } = mapStoreOrder(
      order({
        email: 'not an e-mail',
        phone: '12',
        currency: 'dollars',
        subtotal: '1,5',
        total: null,
      }),
    );
    expect(o).toEqual(
      expect.objectContaining({
        email: null,
        phoneNumber: null,
        currency: null,
        subtotal: '0',
        total: '0',
      }),
    );
  });

  it('takes the phone from the shipping address when the order has none', () => {
    const { order: o } = mapStoreOrder(
      order({ phone: null, shippingAddress: address({ phone: '(202) 555-0143' }) }),
    );
    expect(o.phoneNumber).toBe('(202) 555-0143');
  });

  it('falls back to the store id for a blank number', () => {
    expect(mapStoreOrder(order({ number: '  ' })).order.orderNumber).toBe('5001');
  });
});

describe('importedAddress', () => {
  it('trims, blanks to null, caps lengths, drops unknown country codes', () => {
    expect(
      importedAddress(
        address({ city: '  ', postcode: '9'.repeat(80), countryIso2: 'XX', country: null }),
      ),
    ).toEqual(
      expect.objectContaining({
        city: null,
        postcode: '9'.repeat(64),
        countryIso2: null,
        country: null,
      }),
    );
  });

  it('fills the code from an English country name', () => {
    expect(importedAddress(address({ countryIso2: null, country: 'Germany' })).countryIso2).toBe(
      'DE',
    );
  });

  it('is all null without an address', () => {
    expect(Object.values(importedAddress(null)).every((v) => v === null)).toBe(true);
  });
});

describe('statusCode', () => {
  it.each([
    ['Awaiting Fulfillment', 'awaiting_fulfillment'],
    ['on-hold', 'on_hold'],
    ['PARTIALLY_FULFILLED', 'partially_fulfilled'],
    ['Storniert', 'storniert'],
    ['Expédiée', 'expediee'],
    ['', 'unknown'],
  ])('%j -> %j', (code, expected) => {
    expect(statusCode(code)).toBe(expected);
  });
});
