import { isStorableText } from '../hydra/core/identifiers';
import type { SqlQuery } from '../hydra/core/sql-query';
import { orderLookupSql } from '../orders/order-lookup-sql';
import { shipmentLookupSql } from '../shipments/shipment-lookup-sql';
import type { LookupCriteria } from './lookup-criteria';

export type LookupEntity = 'shipments' | 'orders';

/**
 * What a searchable kind of record answers, from its owner's module: SQL on a row alias `a`
 * with a placeholder `p`.
 */
export interface LookupSql {
  /** The records matching a condition on `a`: a subquery answering their ids. */
  idsWhere(a: string, condition: string): string;
  trackingNumber(a: string, p: string): string;
  orderNumber(a: string, p: string): string;
}

const OWNERS: Record<LookupEntity, LookupSql> = {
  shipments: shipmentLookupSql,
  orders: orderLookupSql,
};

/*
 * The expressions below are written exactly as the lookup indexes of migration
 * 1763860000000 define them (with their IS NOT NULL predicates), so the planner uses them.
 * Both kinds of record carry `email` and `phone_number`.
 */
function email(query: SqlQuery, a: string, value: string): string {
  return `(${a}.email IS NOT NULL AND lower(${a}.email) = ${query.param(value)})`;
}

/** The stored number's digits end with `digits` (a prefix of the reversed digit string). */
function phone(query: SqlQuery, a: string, digits: string): string {
  const pattern = [...digits].reverse().join('') + '%';
  return `(${a}.phone_number IS NOT NULL AND reverse(regexp_replace(${a}.phone_number, '\\D', '', 'g')) LIKE ${query.param(pattern)})`;
}

function trackingNumber(entity: LookupEntity, query: SqlQuery, a: string, value: string): string {
  return OWNERS[entity].trackingNumber(a, query.param(value));
}

function orderNumber(entity: LookupEntity, query: SqlQuery, a: string, value: string): string {
  return OWNERS[entity].orderNumber(a, query.param(value));
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
    const branches = any.map((c) => OWNERS[entity].idsWhere('x', `${scope} AND ${c}`));
    all.push(`t.id IN (${branches.join(' UNION ')})`);
  }
  return all.length ? `(${all.join(' AND ')})` : 'FALSE';
}
