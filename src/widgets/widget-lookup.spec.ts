import { lookupLogInfo, parseLookup, refusedLogInfo } from './widget-lookup';

describe('widget lookups', () => {
  it('asks a tracking form for a trimmed tracking number', () => {
    expect(parseLookup('tracking_form', { trackingNumber: ' TM102ABCTM ' })).toEqual({
      query: { kind: 'trackingNumber', trackingNumber: 'TM102ABCTM' },
    });
    expect(parseLookup('tracking_form', { orderNumber: 'ON1' })).toEqual({
      violations: [
        expect.objectContaining({
          propertyPath: 'trackingNumber',
          message: 'This value should not be blank.',
        }),
      ],
    });
  });

  it('asks an order lookup for the order number and the order’s e-mail', () => {
    expect(parseLookup('order_lookup', { orderNumber: 'ON1', email: 'a@b.example' })).toEqual({
      query: { kind: 'order', orderNumber: 'ON1', email: 'a@b.example' },
    });
    const refused = parseLookup('order_lookup', { orderNumber: 5, email: 'x'.repeat(256) });
    expect('violations' in refused && refused.violations.map((v) => v.propertyPath)).toEqual([
      'orderNumber',
      'email',
    ]);
  });

  it('logs what was asked and found, never the e-mail address', () => {
    expect(lookupLogInfo({ kind: 'trackingNumber', trackingNumber: 'X1' }, 1)).toBe(
      'Lookup by tracking number "X1": 1 shipment found.',
    );
    expect(lookupLogInfo({ kind: 'order', orderNumber: 'ON1', email: 'a@b.example' }, 0)).toBe(
      'Lookup by order number "ON1": nothing found.',
    );
    expect(lookupLogInfo({ kind: 'order', orderNumber: 'ON1', email: 'a@b.example' }, 2)).toBe(
      'Lookup by order number "ON1": 2 shipments found.',
    );
    expect(
      refusedLogInfo([
        { propertyPath: 'trackingNumber', message: 'This value should not be blank.' },
      ]),
    ).toBe('Lookup refused: trackingNumber: This value should not be blank.');
  });
});
