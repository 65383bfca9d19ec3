import { QueryParams } from './query-params';

describe('QueryParams', () => {
  it('keeps order, decodes keys and values, keeps dots', () => {
    const q = QueryParams.fromUrl(
      '/x?address.city=New%20York&order%5BcreatedAt%5D=desc&order[id]=asc&a=1&a=2',
    );
    expect(q.get('address.city')).toBe('New York');
    expect(q.get('a')).toBe('2');
    expect(q.family('order')).toEqual([
      ['createdAt', 'desc'],
      ['id', 'asc'],
    ]);
  });

  it('reads p[] and indexed p[0] forms as arrays without a size cap', () => {
    const many = Array.from({ length: 50 }, (_, i) => `id[]=${i}`).join('&');
    expect(QueryParams.fromUrl(`/x?${many}`).getArray('id')).toHaveLength(50);
    expect(QueryParams.fromUrl('/x?s[0]=a&s[1]=b').getArray('s')).toEqual(['a', 'b']);
    expect(QueryParams.fromUrl('/x?s=a').getArray('s')).toBeUndefined();
  });

  it('reads bracketed maps and survives malformed escapes', () => {
    const q = QueryParams.fromUrl('/x?createdAt[before]=2024-01-01&bad=%E0%A4%A');
    expect(q.getMap('createdAt').get('before')).toBe('2024-01-01');
    expect(q.get('bad')).toBe('%E0%A4%A');
    expect(q.family('order')).toEqual([]);
  });
});
