import { homeSearchValues, isHomeSearchBody, parseHomeSearch } from './home-search';

describe('parseHomeSearch', () => {
  it('reads a tracking number, without spaces and dashes', () => {
    expect(parseHomeSearch({ trackingNumber: ' TM200-ABC 12TM ', by: 'trackingNumber' })).toEqual({
      kind: 'trackingNumber',
      trackingNumber: 'TM200ABC12TM',
    });
    expect(parseHomeSearch({ trackingNumber: 'X1' })).toMatchObject({ trackingNumber: 'X1' });
    expect(parseHomeSearch({ trackingNumber: ' - ', by: 'trackingNumber' })).toBeNull();
  });

  it('reads an order number with an e-mail or a phone number', () => {
    expect(parseHomeSearch({ orderNumber: '1001', contact: 'a@b.example', by: 'order' })).toEqual({
      kind: 'order',
      orderNumber: '1001',
      email: 'a@b.example',
      phoneTail: null,
    });
    expect(parseHomeSearch({ orderNumber: '1001', contact: '+49 (151) 2345-6789' })).toEqual({
      kind: 'order',
      orderNumber: '1001',
      email: null,
      phoneTail: '123456789',
    });
  });

  it('refuses incomplete searches and non-string values', () => {
    expect(parseHomeSearch({ orderNumber: '1001', by: 'order' })).toBeNull();
    expect(parseHomeSearch({ orderNumber: '1001', contact: '12345' })).toBeNull();
    expect(parseHomeSearch({ orderNumber: ['1001'], contact: 'a@b.example' })).toBeNull();
    expect(parseHomeSearch({})).toBeNull();
    expect(homeSearchValues({ contact: { $ne: 1 }, orderNumber: 'x'.repeat(500) })).toEqual({
      trackingNumber: '',
      orderNumber: 'x'.repeat(100),
      contact: '',
    });
  });

  it('drops control characters and knows malformed bodies', () => {
    expect(parseHomeSearch({ trackingNumber: 'TM1\u0000TM' })).toMatchObject({
      trackingNumber: 'TM1TM',
    });
    expect(isHomeSearchBody({ trackingNumber: 'x', other: 5 })).toBe(true);
    expect(isHomeSearchBody({ trackingNumber: 5 })).toBe(false);
    expect(isHomeSearchBody(['x'])).toBe(false);
    expect(isHomeSearchBody(undefined)).toBe(false);
  });
});
