import { ENTITLEMENT_KEYS, ENTITLEMENTS, FREE_PLAN } from './plan-catalogue';

/**
 * SQL of the Team's billing properties (`subscription`, `entitlements`, `billingProvider`),
 * computed on read by the Hydra layer (`{a}` is the team row's alias) and by the entitlement
 * guard, so the answer and the enforcement always agree.
 */

const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** A trial this service granted (no provider behind it) lapses at its end. */
const LAPSED = `(bs.status = 'trialing' AND bs.provider = 'trial' AND bs.expires_at IS NOT NULL AND bs.expires_at <= now())`;

/** Subscriptions that grant their plan: live statuses, lapsed trials excluded. */
export const LIVE_SUBSCRIPTION = `(bs.status IN ('trialing', 'active', 'past_due') AND NOT ${LAPSED})`;

/** The status clients see: a lapsed trial reads as cancelled. */
export const EFFECTIVE_STATUS = `CASE WHEN ${LAPSED} THEN 'cancelled' ELSE bs.status END`;

export const SUBSCRIPTION_SQL = `(SELECT jsonb_build_object(
  'id', bs.id,
  'cbId', bs.provider_subscription_id,
  'status', ${EFFECTIVE_STATUS},
  'planType', bs.plan_type,
  'planId', bs.plan_id,
  'planName', bs.plan_name,
  'addonsQtyByKey', bs.addons_qty_by_key,
  'billingPeriod', bs.billing_period,
  'billingPeriodUnit', bs.billing_period_unit,
  'expiresAt', to_char(bs.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"'),
  'unpaidInvoices', bs.unpaid_invoices,
  'hasScheduledChanges', bs.has_scheduled_changes,
  'scheduledPlanId', bs.scheduled_plan_id,
  'hasCouponCode', bs.has_coupon_code
) FROM subscription bs WHERE bs.team_id = {a}.id)`;

export const BILLING_PROVIDER_SQL = `COALESCE((SELECT CASE WHEN bs.provider = 'storefront' THEN 'storefront' ELSE 'billing_provider' END FROM subscription bs WHERE bs.team_id = {a}.id), 'billing_provider')`;

/** What counts against each entitlement (see plan-catalogue.ts). */
export const USAGE_SQL: Record<(typeof ENTITLEMENT_KEYS)[number], string> = {
  shipments: `(SELECT count(*)::int FROM shipment bsh JOIN workspace bw ON bw.id = bsh.workspace_id
     WHERE bw.team_id = {a}.id AND bsh.created_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`,
  workspaces: `(SELECT count(*)::int FROM workspace bw WHERE bw.team_id = {a}.id AND NOT bw.scheduled_for_delete)`,
  users: `(SELECT count(*)::int FROM team_member bm WHERE bm.team_id = {a}.id)`,
};

/** Capacity of one entitlement: the live subscription's snapshot, else the free plan's. */
export function capacitySql(key: (typeof ENTITLEMENT_KEYS)[number]): string {
  return `COALESCE((SELECT (bs.entitlements ->> ${literal(key)})::int FROM subscription bs
     WHERE bs.team_id = {a}.id AND ${LIVE_SUBSCRIPTION}), ${FREE_PLAN.capacities[key]})`;
}

/** `{shipments: {capacity, used, limitReached, limitExceeded, display, displayPlural}, ...}`. */
export const ENTITLEMENTS_SQL = `(SELECT jsonb_object_agg(be.key, jsonb_build_object(
  'capacity', be.capacity, 'used', be.used,
  'limitReached', be.used >= be.capacity, 'limitExceeded', be.used > be.capacity,
  'display', be.display, 'displayPlural', be.display_plural))
 FROM (${ENTITLEMENT_KEYS.map(
   (key) =>
     `SELECT ${literal(key)} AS key, ${capacitySql(key)} AS capacity, ${USAGE_SQL[key]} AS used, ${literal(ENTITLEMENTS[key].display)} AS display, ${literal(ENTITLEMENTS[key].displayPlural)} AS display_plural`,
 ).join(' UNION ALL ')}) be)`;

/** The same SQL with the team alias bound. */
export function forTeamAlias(sql: string, alias: string): string {
  return sql.replace(/\{a\}/g, alias);
}
