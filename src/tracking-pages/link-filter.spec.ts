import { parseLinkFilter } from './link-filter';

describe('the filter of a tracking page link', () => {
  it('reads id, email and order numbers', () => {
    expect(parseLinkFilter({ id: 'a' })).toEqual({ id: 'a' });
    expect(parseLinkFilter({ email: ' x@example.com ' })).toEqual({ email: 'x@example.com' });
    expect(parseLinkFilter({ orderNumbers: ['1', ' ', '2'] })).toEqual({
      orderNumbers: ['1', '2'],
    });
    expect(parseLinkFilter({ orderNumbers: 'A-1' })).toEqual({ orderNumbers: ['A-1'] });
    expect(parseLinkFilter([])).toEqual({});
    expect(parseLinkFilter(null)).toEqual({});
  });

  it('refuses wrong types with a 400 naming the attribute', () => {
    expect(() => parseLinkFilter('x')).toThrow('"filter"');
    expect(() => parseLinkFilter({ email: 3 })).toThrow('"filter.email"');
    expect(() => parseLinkFilter({ orderNumbers: [1] })).toThrow('"filter.orderNumbers"');
    expect(() => parseLinkFilter({ id: {} })).toThrow('"filter.id"');
  });
});
