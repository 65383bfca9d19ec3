import { lastModifiedOf, topLevelString } from './item-representation';

describe('item representations', () => {
  it('reads a top-level string member of JSON text, skipping nested objects and strings', () => {
    const json = JSON.stringify({
      note: 'says "updatedAt":"1999-01-01"',
      nested: { updatedAt: '2000-01-01T00:00:00Z' },
      list: [{ updatedAt: 'x' }],
      updatedAt: '2026-11-28T08:00:00.000Z',
    });
    expect(topLevelString(json, 'updatedAt')).toBe('2026-11-28T08:00:00.000Z');
    expect(topLevelString('{"a":{"updatedAt":"x"}}', 'updatedAt')).toBeUndefined();
    expect(topLevelString('{"updatedAt":null}', 'updatedAt')).toBeUndefined();
  });

  it('answers Last-Modified as an HTTP date, from a record or JSON text', () => {
    const at = '2026-11-28T08:00:00.000Z';
    expect(lastModifiedOf({ record: { updatedAt: at } })).toBe('Sat, 28 Nov 2026 08:00:00 GMT');
    expect(lastModifiedOf({ id: 'a', json: `{"updatedAt":"${at}"}` })).toBe(
      'Sat, 28 Nov 2026 08:00:00 GMT',
    );
    expect(lastModifiedOf({ record: { updatedAt: 'garbage' } })).toBeUndefined();
    expect(lastModifiedOf({ record: {} })).toBeUndefined();
  });
});
