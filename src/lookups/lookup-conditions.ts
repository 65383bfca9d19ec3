import { isStorableText } from '../hydra/core/identifiers';
import type { SqlQuery } from '../hydra/core/sql-query';
import type { LookupCriteria } from './lookup-criteria';

export type LookupEntity = 'shipments' | 'orders';

const TABLES: Record<LookupEntity, string> = { shipments: 'shipment', orders: '"order"' };

/*
 * The expressions below are written exactly as the lookup indexes of migration
 * 1763860000000 define them (with their IS NOT NULL predicates), so the planner uses them.
 */
function email(query: SqlQuery, a: string, value: string): string {
  return `(${a}.email IS NOT NULL AND lower(${a}.email) = ${query.param(value)})`;
}

/** The stored number's digits end with `digits` (a prefix of the reversed digit string). */
function phone(query: SqlQuery, a: string, digits: string): string {
  const pattern = [...digits].reverse().join('') + '%';
  return `(${a}.phone_number IS NOT NULL AND reverse(regexp_replace(${a}.phone_number, '\\D', '', 'g')) LIKE ${query.param(pattern)})`;
}

/** Tracking numbers compare without case: carriers print them in capitals, people type them in any. */
function trackingNumber(entity: LookupEntity, query: SqlQuery, a: string, value: string): string {
  const p = query.param(value);
  if (entity === 'shipments') {
    return `(${a}.tracking_number IS NOT NULL AND upper(${a}.tracking_number) = upper(${p}))`;
  }
  return `EXISTS (SELECT 1 FROM shipment_order so JOIN shipment s ON s.id = so.shipment_id
     WHERE so.order_id = ${a}.id AND s.workspace_id = ${a}.workspace_id
       AND s.tracking_number IS NOT NULL AND upper(s.tracking_number) = upper(${p}))`;
}

function orderNumber(entity: LookupEntity, query: SqlQuery, a: string, value: string): string {
  const p = query.param(value);
  return entity === 'shipments'
    ? `${a}.order_numbers @> ARRAY[${p}]::text[]`
    : `${a}.order_number = ${p}`;
}

/**
 * One SQL condition on `t` (a shipment or order row) selecting the records the criteria
 * match. The free-text form is a union of one indexed look-up per kind within the caller's
 * workspaces (an OR on the row would walk the whole workspace).
 */
export function lookupCondition(
  entity: LookupEntity,
  criteria: LookupCriteria,
  query: SqlQuery,
  workspaceIds: string[],
): string {
  // A value with a NUL is no stored text: nothing matches it (and it never reaches SQL).
  const texts = [
    criteria.trackingNumber,
    criteria.orderNumber,
    criteria.email,
    criteria.query?.text,
  ];
  if (texts.some((v) => v !== undefined && !isStorableText(v))) return 'FALSE';
  const all: string[] = [];
  if (criteria.trackingNumber)
    all.push(trackingNumber(entity, query, 't', criteria.trackingNumber));
  if (criteria.orderNumber) all.push(orderNumber(entity, query, 't', criteria.orderNumber));
  if (criteria.email) all.push(email(query, 't', criteria.email));
  if (criteria.phoneDigits) all.push(phone(query, 't', criteria.phoneDigits));
  if (criteria.query) {
    const { text } = criteria.query;
    const any = [trackingNumber(entity, query, 'x', text), orderNumber(entity, query, 'x', text)];
    if (criteria.query.email) any.push(email(query, 'x', criteria.query.email));
    if (criteria.query.phoneDigits) any.push(phone(query, 'x', criteria.query.phoneDigits));
    const scope = `x.workspace_id = ANY(${query.param(workspaceIds)}::uuid[])`;
    const branches = any.map((c) => `SELECT x.id FROM ${TABLES[entity]} x WHERE ${scope} AND ${c}`);
    all.push(`t.id IN (${branches.join(' UNION ')})`);
  }
  return all.length ? `(${all.join(' AND ')})` : 'FALSE';
}
