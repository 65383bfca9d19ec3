import { SqlQuery } from '../hydra/core/sql-query';
import { lookupCondition } from './lookup-conditions';
import { lookupCriteria } from './lookup-criteria';

describe('lookupCondition', () => {
  const workspaces = ['5f0c6c43-5d39-4c47-9a3e-0a1b2c3d4e5f'];

  it('binds every criterion as a parameter', () => {
    const query = new SqlQuery('shipment', 't');
    const sql = lookupCondition(
      'shipments',
      lookupCriteria({ trackingNumber: 'AB1' }),
      query,
      workspaces,
    );
    expect(sql).toContain('upper(t.tracking_number) = upper($1)');
    expect(query.params).toEqual(['AB1']);
  });

  it('matches nothing for a value with a NUL, which no stored text holds', () => {
    for (const body of [
      { trackingNumber: 'AB\u00001' },
      { orderNumber: '\u0000' },
      { email: 'a\u0000@example.test' },
      { query: 'x\u0000y' },
      { trackingNumber: 'AB1', query: '\u0000' },
    ]) {
      const query = new SqlQuery('order', 't');
      expect(lookupCondition('orders', lookupCriteria(body), query, workspaces)).toBe('FALSE');
      expect(query.params).toEqual([]);
    }
  });
});
