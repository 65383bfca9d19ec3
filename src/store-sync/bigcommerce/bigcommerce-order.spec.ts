import { bigcommerceStoreOrder } from './bigcommerce-order';

const order = {
  id: 118,
  date_created: 'Tue, 20 Nov 2012 00:00:00 +0000',
  date_modified: 'Wed, 21 Nov 2012 14:05:09 +0000',
  status: 'Awaiting Fulfillment',
  subtotal_inc_tax: '35.6300',
  total_inc_tax: '48.2500',
  currency_code: 'AUD',
  billing_address: {
    first_name: 'Ada',
    email: 'ada@example.com',
    phone: '',
    country_iso2: 'AU',
    city: 'Sydney',
  },
};

describe('bigcommerceStoreOrder', () => {
  it('reads RFC 2822 dates, four-decimal money and the status name', () => {
    expect(bigcommerceStoreOrder(order, [], [], [])).toEqual(
      expect.objectContaining({
        id: '118',
        number: '118',
        createdAt: new Date('2012-11-20T00:00:00Z'),
        updatedAt: new Date('2012-11-21T14:05:09Z'),
        subtotal: '35.63',
        total: '48.25',
        currency: 'AUD',
        status: { code: 'Awaiting Fulfillment', title: 'Awaiting Fulfillment' },
        // No shipping address: the billing one.
        shippingAddress: expect.objectContaining({ city: 'Sydney', countryIso2: 'AU' }),
        shipments: [],
      }),
    );
  });

  it('takes the carrier from tracking_carrier, else shipping_provider, and the lines by product', () => {
    const mapped = bigcommerceStoreOrder(
      order,
      [
        {
          id: 7,
          name: 'Mug',
          sku: 'MUG',
          quantity: 2,
          price_inc_tax: '9.9500',
          product_id: 3,
          variant_id: 0,
          product_options: [{ display_name: 'Colour', display_value: 'Blue' }],
        },
      ],
      [
        {
          id: 1,
          tracking_number: 'AB123',
          tracking_carrier: '',
          shipping_provider: 'auspost',
          order_address_id: 9,
          items: [{ order_product_id: 7, quantity: 2 }],
        },
        { id: 2, tracking_number: '', tracking_carrier: 'fedex', items: [] },
      ],
      [{ id: 9, city: 'Melbourne', country_iso2: 'AU' }],
    )!;
    expect(mapped.lines).toEqual([
      {
        id: '7',
        name: 'Mug',
        sku: 'MUG',
        quantity: 2,
        price: '9.95',
        productId: '3',
        variantId: null,
        options: { Colour: 'Blue' },
        imageUrl: null,
      },
    ]);
    expect(
      mapped.shipments.map((s) => [
        s.id,
        s.trackingNumbers,
        s.carrierName,
        s.lines,
        s.address?.city ?? null,
      ]),
    ).toEqual([
      ['1', ['AB123'], 'auspost', [{ lineId: '7', quantity: 2 }], 'Melbourne'],
      ['2', [], 'fedex', [], null],
    ]);
  });

  it('refuses an order without id or modification date', () => {
    expect(bigcommerceStoreOrder({ ...order, id: undefined }, [], [], [])).toBeNull();
    expect(bigcommerceStoreOrder({ ...order, date_modified: '' }, [], [], [])).toBeNull();
  });
});
