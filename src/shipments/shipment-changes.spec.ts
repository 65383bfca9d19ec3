import { changedFields } from './shipment-changes';

describe('changedFields', () => {
  it('names the properties whose values differ, by content', () => {
    const before = {
      id: 'a',
      email: 'a@example.com',
      orderNumbers: ['1', '2'],
      address: { city: 'Berlin', postcode: null },
      shippedAt: new Date('2024-01-01T00:00:00Z'),
      updatedAt: '2024-01-01T00:00:00.000Z',
    };
    const after = {
      id: 'a',
      email: 'b@example.com',
      orderNumbers: ['1', '2'],
      address: { city: 'Hamburg', postcode: null },
      shippedAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-02-01T00:00:00.000Z',
    };
    expect(changedFields(before, after)).toEqual(['email', 'address']);
  });

  it('treats a missing value like null and reports properties that went away', () => {
    expect(changedFields({ a: null, b: 1 }, { a: undefined })).toEqual(['b']);
    expect(changedFields({}, { a: [] })).toEqual(['a']);
  });

  it('finds nothing in equal representations', () => {
    expect(changedFields({ a: [1], b: { c: 'x' } }, { a: [1], b: { c: 'x' } })).toEqual([]);
  });
});
