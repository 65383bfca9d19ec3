import { checkMapping, guessEntity, rowBody, splitList, suggestMapping } from './import-fields';

describe('import fields', () => {
  it('suggests a mapping from usual header names, each field once', () => {
    expect(
      suggestMapping('shipments', [
        'Tracking Number',
        'Carrier',
        'Order #',
        'E-mail',
        'Zip',
        'Country Code',
        'Shipping City',
        'Tracking',
        'Notes',
      ]),
    ).toEqual({
      'Tracking Number': 'trackingNumber',
      Carrier: 'originCarrier',
      'Order #': 'orderNumbers',
      'E-mail': 'email',
      Zip: 'address.postcode',
      'Country Code': 'address.countryIso2',
      'Shipping City': 'address.city',
      Tracking: null,
      Notes: null,
    });
    expect(suggestMapping('orders', ['order_id', 'Billing City', 'City', 'total'])).toEqual({
      order_id: 'orderNumber',
      'Billing City': 'billingAddress.city',
      City: 'shippingAddress.city',
      total: 'total',
    });
    expect(suggestMapping('shipments', ['address.city'])).toEqual({
      'address.city': 'address.city',
    });
  });

  it('guesses the entity from the headers', () => {
    expect(guessEntity(['tracking_number', 'order'])).toBe('shipments');
    expect(guessEntity(['Order Number', 'Total'])).toBe('orders');
    expect(guessEntity(['a', 'b'])).toBe('shipments');
  });

  it('builds the POST body of a row', () => {
    const columns = ['tn', 'orders', 'status', 'city', 'ignored', 'empty'];
    const mapping = {
      tn: 'trackingNumber',
      orders: 'orderNumbers',
      status: 'shipmentStatus',
      city: 'address.city',
      empty: 'email',
    };
    expect(
      rowBody('shipments', '/workspaces/w', mapping, columns, [
        ' TM1 ',
        'A1; A2|A3',
        'packed',
        'Berlin',
        'x',
        '',
      ]),
    ).toEqual({
      workspace: '/workspaces/w',
      trackingNumber: 'TM1',
      orderNumbers: ['A1', 'A2', 'A3'],
      shipmentStatus: { code: 'packed' },
      address: { city: 'Berlin' },
    });
    expect(rowBody('orders', '/workspaces/w', { n: 'orderNumber' }, ['n'], ['ON1'])).toEqual({
      workspace: '/workspaces/w',
      orderNumber: 'ON1',
      orderType: 'customer',
    });
    expect(splitList(' , a ,,b ')).toEqual(['a', 'b']);
  });
});

describe('checkMapping', () => {
  it('keeps known columns mapped to known fields once, and needs the required fields', () => {
    expect(
      checkMapping('shipments', ['a', 'b', 'c'], { a: 'trackingNumber', b: '', c: null }),
    ).toEqual({ mapping: { a: 'trackingNumber' }, violations: [] });
    expect(
      checkMapping('shipments', ['a', 'b'], { a: 'email', b: 'email', x: 'city', z: 1 }),
    ).toEqual({
      mapping: { a: 'email' },
      violations: [
        { propertyPath: 'mapping[b]', message: 'The field "email" is already mapped from "a".' },
        { propertyPath: 'mapping[x]', message: 'The file has no such column.' },
        { propertyPath: 'mapping[z]', message: 'The file has no such column.' },
        {
          propertyPath: 'mapping',
          message: 'No column is mapped to "trackingNumber", which shipments need.',
        },
      ],
    });
    expect(checkMapping('orders', ['n'], { n: 'city' }).violations[0]).toEqual({
      propertyPath: 'mapping[n]',
      message: 'Unknown field for orders: "city".',
    });
  });
});
