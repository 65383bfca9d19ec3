import { SqlQuery } from '../core/sql-query';
import { countKeyOf, type CountDefinition } from './maintained-counts';

const definition: CountDefinition = {
  table: 'shipment',
  scopeColumn: 'workspace_id',
  columns: ['tracking_status', 'origin_carrier'],
};
const declared = new Set(['tracking_status', 'origin_carrier']);
const W1 = '11111111-1111-1111-1111-111111111111';
const W2 = '22222222-2222-2222-2222-222222222222';

function query(...conditions: Array<[string, string[]] | string>): SqlQuery {
  const q = new SqlQuery('shipment', 't');
  for (const c of conditions) {
    if (typeof c === 'string') q.andWhere(c);
    else q.andWhere(`${c[0]} = ANY(...)`, { sql: c[0], values: c[1] });
  }
  return q;
}

describe('countKeyOf', () => {
  it('counts the whole scope when only the scope is constrained', () => {
    expect(countKeyOf(query(['t."workspace_id"', [W1, W2]]), definition, declared)).toEqual({
      table: 'shipment',
      scopeIds: [W1, W2],
      dimension: '',
      values: [''],
    });
  });

  it('intersects equalities on one column (tenancy and route scope)', () => {
    const key = countKeyOf(
      query(['t."workspace_id"', [W1, W2]], ['t."workspace_id"', [W2]]),
      definition,
      declared,
    );
    expect(key?.scopeIds).toEqual([W2]);
    const none = countKeyOf(
      query(
        ['t."workspace_id"', [W1]],
        ['t."tracking_status"', ['a']],
        ['t."tracking_status"', ['b']],
      ),
      definition,
      declared,
    );
    expect(none).toEqual({
      table: 'shipment',
      scopeIds: [W1],
      dimension: 'tracking_status',
      values: [],
    });
  });

  it('counts one declared dimension with its values', () => {
    expect(
      countKeyOf(
        query(['t."workspace_id"', [W1]], ['t."origin_carrier"', ['ups', 'dhl']]),
        definition,
        declared,
      ),
    ).toEqual({
      table: 'shipment',
      scopeIds: [W1],
      dimension: 'origin_carrier',
      values: ['ups', 'dhl'],
    });
  });

  it('refuses every other shape', () => {
    const scope: [string, string[]] = ['t."workspace_id"', [W1]];
    // Two dimensions, an undeclared dimension, an untagged condition, no scope, a join.
    expect(
      countKeyOf(
        query(scope, ['t."origin_carrier"', ['ups']], ['t."tracking_status"', ['x']]),
        definition,
        declared,
      ),
    ).toBeNull();
    expect(
      countKeyOf(query(scope, ['t."origin_carrier"', ['ups']]), definition, new Set()),
    ).toBeNull();
    expect(countKeyOf(query(scope, ['t."email"', ['a@b.co']]), definition, declared)).toBeNull();
    expect(countKeyOf(query(scope, 't."created_at" > $2'), definition, declared)).toBeNull();
    expect(countKeyOf(query(['t."origin_carrier"', ['ups']]), definition, declared)).toBeNull();
    expect(countKeyOf(query(), definition, declared)).toBeNull();
    const joined = query(scope);
    joined.join('s', 'LEFT JOIN status s ON s.id = t.shipment_status_id');
    expect(countKeyOf(joined, definition, declared)).toBeNull();
  });
});
