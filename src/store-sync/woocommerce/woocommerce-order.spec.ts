import { metaNumbers, woocommerceStoreOrder } from './woocommerce-order';

const order = (fields: Record<string, unknown> = {}) => ({
  id: 727,
  number: '727',
  status: 'on-hold',
  currency: 'EUR',
  date_created_gmt: '2024-05-01T09:00:00',
  date_modified_gmt: '2024-05-02T10:30:15',
  total: '44.40',
  billing: {
    first_name: 'Ada',
    email: 'ada@example.com',
    phone: '',
    country: 'DE',
    city: 'Berlin',
  },
  shipping: { first_name: 'Ada', country: 'de', city: 'Berlin', phone: '+4930901820' },
  line_items: [
    {
      id: 31,
      name: 'Mug',
      product_id: 9,
      variation_id: 0,
      quantity: 2,
      subtotal: '19.90',
      total: '19.90',
      sku: 'MUG',
      price: 9.95,
      meta_data: [
        { id: 1, key: 'pa_colour', value: 'blue', display_key: 'Colour', display_value: 'Blue' },
        {
          id: 2,
          key: '_reduced_stock',
          value: '2',
          display_key: '_reduced_stock',
          display_value: '2',
        },
      ],
      image: { id: 5, src: 'https://shop.example/mug.jpg' },
    },
    {
      id: 32,
      name: 'Lid',
      product_id: 10,
      variation_id: 11,
      quantity: 1,
      subtotal: '24.50',
      sku: '',
      price: '24.5',
    },
  ],
  meta_data: [],
  ...fields,
});

describe('woocommerceStoreOrder', () => {
  it('maps the order, its lines and tracking items', () => {
    const mapped = woocommerceStoreOrder(
      order(),
      [
        {
          tracking_id: 'abc',
          tracking_provider: 'DHL Express',
          tracking_link: 'https://dhl.example/t/1',
          tracking_number: 'JD0001',
          date_shipped: '2024-05-02',
        },
      ],
      null,
    )!;
    expect(mapped).toEqual({
      platform: 'woocommerce',
      id: '727',
      number: '727',
      createdAt: new Date('2024-05-01T09:00:00Z'),
      updatedAt: new Date('2024-05-02T10:30:15Z'),
      email: 'ada@example.com',
      phone: '+4930901820',
      currency: 'EUR',
      subtotal: '44.40',
      total: '44.40',
      status: { code: 'on-hold', title: 'On hold' },
      shippingAddress: expect.objectContaining({
        city: 'Berlin',
        countryIso2: 'de',
        country: null,
      }),
      billingAddress: expect.objectContaining({ countryIso2: 'DE' }),
      url: null,
      lines: [
        {
          id: '31',
          name: 'Mug',
          sku: 'MUG',
          quantity: 2,
          price: '9.95',
          productId: '9',
          variantId: null,
          options: { Colour: 'Blue' },
          imageUrl: 'https://shop.example/mug.jpg',
        },
        expect.objectContaining({
          id: '32',
          sku: null,
          price: '24.5',
          variantId: '11',
          imageUrl: null,
        }),
      ],
      shipments: [
        {
          id: 'abc',
          trackingNumbers: ['JD0001'],
          carrierName: 'DHL Express',
          trackingUrl: 'https://dhl.example/t/1',
          createdAt: new Date('2024-05-02T00:00:00Z'),
          lines: [],
          address: null,
        },
      ],
    });
  });

  it('adds numbers of the meta key, once each', () => {
    const mapped = woocommerceStoreOrder(
      order({ meta_data: [{ id: 1, key: 'tracking_number', value: 'JD0001, JD0002' }] }),
      [{ tracking_id: 'abc', tracking_number: 'JD0001' }],
      'tracking_number',
    )!;
    expect(mapped.shipments.map((s) => [s.id, s.trackingNumbers])).toEqual([
      ['abc', ['JD0001']],
      ['727-meta-2', ['JD0002']],
    ]);
  });

  it('refuses an order without id or modification time', () => {
    expect(woocommerceStoreOrder(order({ id: undefined }), [], null)).toBeNull();
    expect(woocommerceStoreOrder(order({ date_modified_gmt: '' }), [], null)).toBeNull();
  });
});

describe('metaNumbers', () => {
  it('reads strings, lists and tracking objects under the key only', () => {
    expect(
      metaNumbers(
        [
          { key: 'other', value: 'X1' },
          { key: 'tn', value: 'A1 A2;A3' },
          { key: 'tn', value: ['B1', { tracking_number: 'C1', tracking_provider: 'UPS' }] },
          { key: 'tn', value: { tracking_number: 'D1', custom_tracking_provider: 'Local' } },
        ],
        'tn',
      ),
    ).toEqual([
      { number: 'A1', provider: null },
      { number: 'A2', provider: null },
      { number: 'A3', provider: null },
      { number: 'B1', provider: null },
      { number: 'C1', provider: 'UPS' },
      { number: 'D1', provider: 'Local' },
    ]);
    expect(metaNumbers([{ key: 'tn', value: 'A1' }], null)).toEqual([]);
  });
});
