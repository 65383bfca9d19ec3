import type { ResolvedPath, Filter } from '../core/filter';
import { QueryParams } from '../core/query-params';
import { SqlQuery } from '../core/sql-query';
import { BooleanFilter } from './boolean-filter';
import { DateFilter } from './date-filter';
import { EmptyFilter } from './empty-filter';
import { ExactFilter } from './exact-filter';
import { ExistsFilter } from './exists-filter';
import { JsonKeyFilter } from './json-key-filter';
import { OrderFilter } from './order-filter';
import { RangeFilter } from './range-filter';

const paths: Record<string, Partial<ResolvedPath>> = {
  id: { type: 'string', isUuid: true },
  title: { type: 'string', isText: true },
  tags: { type: 'array', isArray: true },
  qty: { type: 'integer' },
  enabled: { type: 'boolean' },
  createdAt: { type: 'datetime' },
  integration: { type: 'string' },
  customFields: { type: 'object' },
};

function run(filter: Filter, qs: string): SqlQuery {
  const query = new SqlQuery('x', 't');
  const resolve = (p: string): ResolvedPath | null =>
    paths[p]
      ? ({
          sql: `t.${p}`,
          isArray: false,
          isUuid: false,
          isText: false,
          ...paths[p],
        } as ResolvedPath)
      : null;
  filter.apply({ params: QueryParams.fromUrl(`/x?${qs}`), query, resolve });
  return query;
}

describe('filters build bound SQL', () => {
  it('exact: scalar, array, ids, arrays columns, bad values', () => {
    const f = new ExactFilter(['title', 'id', 'tags', 'qty']);
    expect(run(f, "title=a'b").where).toEqual(['t.title = $1']);
    expect(run(f, "title=a'b").params).toEqual(["a'b"]);
    expect(run(f, 'title[]=a&title[]=b').where).toEqual(['t.title = ANY($1)']);
    const id = '5f0c6c43-5d39-4c47-9a3e-0a1b2c3d4e5f';
    expect(run(f, `id=/things/${id}`).params).toEqual([id]);
    expect(run(f, 'id=nope').where).toEqual(['FALSE']);
    expect(run(f, 'tags=x').where).toEqual(['t.tags @> ARRAY[$1]::text[]']);
    expect(run(f, 'qty=abc').where).toEqual([]);
    expect(run(f, 'qty[]=1&qty[]=2').where).toEqual(['t.qty = ANY($1::bigint[])']);
  });

  it('exact and JSON key: text with a NUL matches nothing and never reaches SQL', () => {
    const f = new ExactFilter(['title', 'tags']);
    expect(run(f, 'title=%00').where).toEqual(['FALSE']);
    expect(run(f, 'title=a%00b').params).toEqual([]);
    expect(run(f, 'title[]=a&title[]=%00').where).toEqual(['t.title = $1']);
    expect(run(f, 'title[]=a&title[]=%00').params).toEqual(['a']);
    expect(run(f, 'tags=%00').where).toEqual(['FALSE']);
    const json = new JsonKeyFilter('customFields');
    expect(run(json, 'customFields.color=%00').where).toEqual(['FALSE']);
    expect(run(json, 'customFields.color=%00').params).toEqual([]);
    expect(run(json, 'customFields.color[]=red&customFields.color[]=%00').params).toEqual([
      'color',
      'red',
    ]);
  });

  it('date, range, exists, empty, boolean, order', () => {
    expect(
      run(new DateFilter(['createdAt']), 'createdAt[strictly_after]=2024-01-02').where,
    ).toEqual(['t.createdAt > $1::timestamptz']);
    expect(run(new DateFilter(['createdAt']), 'createdAt[after]=soon').where).toEqual([]);
    expect(run(new RangeFilter(['qty']), 'qty[between]=1..5&qty[lte]=4').where).toEqual([
      't.qty BETWEEN $1::numeric AND $2::numeric',
      't.qty <= $3::numeric',
    ]);
    expect(
      run(new ExistsFilter(['integration', 'tags']), 'exists[integration]=true&exists[tags]=0')
        .where,
    ).toEqual(['t.integration IS NOT NULL', 'COALESCE(cardinality(t.tags), 0) = 0']);
    expect(run(new ExistsFilter(['integration']), 'exists[integration]=maybe').where).toEqual([]);
    expect(run(new EmptyFilter(['title']), 'empty[title]=1').where).toEqual([
      "COALESCE(t.title, '') = ''",
    ]);
    expect(run(new BooleanFilter(['enabled']), 'enabled=false').params).toEqual([false]);
    expect(run(new BooleanFilter(['enabled']), 'enabled=perhaps').where).toEqual([]);
    expect(
      run(new OrderFilter(['qty', 'title']), 'order[title]=DESC&order[qty]=asc&order[x]=asc')
        .orderBy,
    ).toEqual(['t.title DESC', 't.qty ASC']);
  });

  it('describes variables in the reference order', () => {
    const typeOf = () => 'string' as const;
    expect(new ExactFilter(['title']).describe(typeOf).map((v) => v.variable)).toEqual([
      'title',
      'title[]',
    ]);
    expect(new DateFilter(['createdAt']).describe().map((v) => v.variable)).toEqual([
      'createdAt[before]',
      'createdAt[strictly_before]',
      'createdAt[after]',
      'createdAt[strictly_after]',
    ]);
    expect(new RangeFilter(['qty']).describe().map((v) => v.variable)).toEqual([
      'qty[between]',
      'qty[gt]',
      'qty[gte]',
      'qty[lt]',
      'qty[lte]',
    ]);
  });
});
