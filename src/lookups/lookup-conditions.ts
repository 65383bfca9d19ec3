import type { SqlQuery } from '../hydra/query/sql-query';
import type { LookupCriteria } from './lookup-criteria';

export type LookupEntity = 'shipments' | 'orders';

/*
 * The expressions below are written exactly as the lookup indexes of migration
 * 1763860000000 define them (with their IS NOT NULL predicates), so the planner uses them.
 */
const PHONE_SUFFIX = (a: string) => `reverse(regexp_replace(${a}.phone_number, '\\D', '', 'g'))`;

function email(query: SqlQuery, value: string): string {
  return `(t.email IS NOT NULL AND lower(t.email) = ${query.param(value)})`;
}

/** The stored number's digits end with `digits` (a prefix of the reversed digit string). */
function phone(query: SqlQuery, digits: string): string {
  const pattern = [...digits].reverse().join('') + '%';
  return `(t.phone_number IS NOT NULL AND ${PHONE_SUFFIX('t')} LIKE ${query.param(pattern)})`;
}

/** Tracking numbers compare without case: carriers print them in capitals, people type them in any. */
function trackingNumber(entity: LookupEntity, query: SqlQuery, value: string): string {
  const p = query.param(value);
  if (entity === 'shipments') {
    return `(t.tracking_number IS NOT NULL AND upper(t.tracking_number) = upper(${p}))`;
  }
  return `EXISTS (SELECT 1 FROM shipment_order so JOIN shipment s ON s.id = so.shipment_id
     WHERE so.order_id = t.id AND s.workspace_id = t.workspace_id
       AND s.tracking_number IS NOT NULL AND upper(s.tracking_number) = upper(${p}))`;
}

function orderNumber(entity: LookupEntity, query: SqlQuery, value: string): string {
  const p = query.param(value);
  return entity === 'shipments'
    ? `t.order_numbers @> ARRAY[${p}]::text[]`
    : `t.order_number = ${p}`;
}

/** One SQL condition on `t` (a shipment or order row) selecting the records the criteria match. */
export function lookupCondition(
  entity: LookupEntity,
  criteria: LookupCriteria,
  query: SqlQuery,
): string {
  const all: string[] = [];
  if (criteria.trackingNumber) all.push(trackingNumber(entity, query, criteria.trackingNumber));
  if (criteria.orderNumber) all.push(orderNumber(entity, query, criteria.orderNumber));
  if (criteria.email) all.push(email(query, criteria.email));
  if (criteria.phoneDigits) all.push(phone(query, criteria.phoneDigits));
  if (criteria.query) {
    const { text } = criteria.query;
    const any = [trackingNumber(entity, query, text), orderNumber(entity, query, text)];
    if (criteria.query.email) any.push(email(query, criteria.query.email));
    if (criteria.query.phoneDigits) any.push(phone(query, criteria.query.phoneDigits));
    all.push(`(${any.join(' OR ')})`);
  }
  return all.length ? `(${all.join(' AND ')})` : 'FALSE';
}
