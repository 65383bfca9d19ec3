import { QueryParams } from '../core/query-params';
import type { ResolvedPath } from '../core/filter';
import { SqlQuery } from '../core/sql-query';
import { ExactFilter } from './exact-filter';

const arrayPath: ResolvedPath = {
  sql: 't.order_numbers',
  type: 'array',
  isArray: true,
  isUuid: false,
  isText: false,
};

function apply(url: string): SqlQuery {
  const query = new SqlQuery('shipment', 't');
  new ExactFilter(['orderNumbers']).apply({
    params: QueryParams.fromUrl(url),
    query,
    resolve: () => arrayPath,
  });
  return query;
}

describe('ExactFilter on array columns', () => {
  it('matches one value by containment, which a GIN index serves', () => {
    const q = apply('/shipments?orderNumbers=ON1');
    expect(q.where).toEqual(['t.order_numbers @> ARRAY[$1]::text[]']);
    expect(q.params).toEqual(['ON1']);
  });

  it('matches any of several values by overlap', () => {
    const q = apply('/shipments?orderNumbers[]=ON1&orderNumbers[]=ON2');
    expect(q.where).toEqual(['t.order_numbers && $1::text[]']);
    expect(q.params).toEqual([['ON1', 'ON2']]);
  });
});

describe('ExactFilter on scalar columns', () => {
  const run = (path: ResolvedPath, url: string) => {
    const query = new SqlQuery('note', 't');
    new ExactFilter(['p']).apply({ params: QueryParams.fromUrl(url), query, resolve: () => path });
    return query;
  };
  const text: ResolvedPath = {
    sql: 't.p',
    type: 'string',
    isArray: false,
    isUuid: false,
    isText: true,
  };

  it('matches several text values with an array typed by the column', () => {
    const q = run(text, '/x?p[]=a&p[]=b');
    expect(q.where).toEqual(['t.p = ANY($1)']);
    expect(q.params).toEqual([['a', 'b']]);
  });

  it('casts arrays of typed values', () => {
    const q = run(
      { ...text, isUuid: true, isText: false },
      '/x?p[]=/x/0b8e7a3c-1f2d-4c5b-9a8e-7d6c5b4a3f21&p[]=0B8E7A3C-1F2D-4C5B-9A8E-7D6C5B4A3F22',
    );
    expect(q.where).toEqual(['t.p = ANY($1::uuid[])']);
    expect(q.params).toEqual([
      ['0b8e7a3c-1f2d-4c5b-9a8e-7d6c5b4a3f21', '0b8e7a3c-1f2d-4c5b-9a8e-7d6c5b4a3f22'],
    ]);
  });
});
