import { lastModifiedOf } from './item-representation';

describe('item representations', () => {
  it('answers Last-Modified as an HTTP date, from a record or the column read beside the text', () => {
    const at = '2026-11-28T08:00:00.000Z';
    expect(lastModifiedOf({ record: { updatedAt: at } })).toBe('Sat, 28 Nov 2026 08:00:00 GMT');
    expect(lastModifiedOf({ id: 'a', json: '{}', updatedAt: new Date(at) })).toBe(
      'Sat, 28 Nov 2026 08:00:00 GMT',
    );
    expect(lastModifiedOf({ id: 'a', json: `{"updatedAt":"${at}"}` })).toBeUndefined();
    expect(lastModifiedOf({ record: { updatedAt: 'garbage' } })).toBeUndefined();
    expect(lastModifiedOf({ record: {} })).toBeUndefined();
    expect(
      lastModifiedOf({ id: 'a', json: '{}', updatedAt: new Date(Number.NaN) }),
    ).toBeUndefined();
    expect(lastModifiedOf({ id: 'a', json: '{}', updatedAt: null })).toBeUndefined();
  });
});
