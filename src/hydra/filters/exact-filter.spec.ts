import { QueryParams } from '../query/query-params';
import type { ResolvedPath } from '../query/property-path';
import { SqlQuery } from '../query/sql-query';
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
