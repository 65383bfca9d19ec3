import { SELF_HOSTED_PLAN, SELF_HOSTED_SQL } from './billing-mode';
import { COUNT_TABLE } from '../hydra/collection/maintained-counts.sql';
import { teamExistsSql, teamSeatCountSql } from '../teams/team-lookup-store';
import { latestTeamWorkflowSql } from '../workflows/workflow-store';
import {
  activeWorkspaceCountSql,
  teamWorkspacesSql,
  workspaceTeamSql,
} from '../workspaces/workspace-lookup-store';
import { ENTITLEMENT_KEYS, ENTITLEMENTS, FREE_PLAN } from './plan-catalogue';

/**
 * SQL of the Team's billing properties (`subscription`, `entitlements`, `billingProvider`),
 * computed on read by the Hydra layer (`{a}` is the team row's alias, of which only `{a}.id`
 * is read) and by the entitlement guard, so the answer and the enforcement always agree.
 * The parts on other modules' tables (workspaces, seats, workflows) are their stores' SQL.
 */

const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** A trial this service granted (no provider behind it) lapses at its end. */
const LAPSED = `(bs.status = 'trialing' AND bs.provider = 'trial' AND bs.expires_at IS NOT NULL AND bs.expires_at <= now())`;

/** Subscriptions that grant their plan: live statuses, lapsed trials excluded. */
export const LIVE_SUBSCRIPTION = `(bs.status IN ('trialing', 'active', 'past_due') AND NOT ${LAPSED})`;

/** The status clients see: a lapsed trial reads as cancelled. */
export const EFFECTIVE_STATUS = `CASE WHEN ${LAPSED} THEN 'cancelled' ELSE bs.status END`;

/**
 * The node keys of the team's subscription, first as in every embedded record: the reference
 * declares `@id` and `@type` on it. It has no route of its own, so its IRI is the team's with
 * a fragment (a client that dereferences it reads the team, which holds it).
 */
const SUBSCRIPTION_NODE = `'@id', '/teams/' || {a}.id || '#subscription', '@type', 'Subscription'`;

/** The subscription of every team of an installation without billing (billing-mode.ts). */
const SELF_HOSTED_SUBSCRIPTION = `json_build_object(
  ${SUBSCRIPTION_NODE},
  'id', {a}.id,
  'cbId', NULL,
  'status', 'active',
  'planType', ${literal(SELF_HOSTED_PLAN.type)},
  'planId', ${literal(SELF_HOSTED_PLAN.id)},
  'planName', ${literal(SELF_HOSTED_PLAN.name)},
  'addonsQtyByKey', '{}'::json,
  'billingPeriod', NULL,
  'billingPeriodUnit', NULL,
  'expiresAt', NULL,
  'unpaidInvoices', false,
  'hasScheduledChanges', false,
  'scheduledPlanId', NULL,
  'hasCouponCode', false
)`;

export const SUBSCRIPTION_SQL = `(SELECT CASE WHEN ${SELF_HOSTED_SQL} THEN ${SELF_HOSTED_SUBSCRIPTION} ELSE (SELECT json_build_object(
  ${SUBSCRIPTION_NODE},
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
) FROM subscription bs WHERE bs.team_id = {a}.id) END)`;

export const BILLING_PROVIDER_SQL = `CASE WHEN ${SELF_HOSTED_SQL} THEN ${literal(SELF_HOSTED_PLAN.id)} ELSE COALESCE((SELECT CASE WHEN bs.provider = 'storefront' THEN 'storefront' ELSE 'billing_provider' END FROM subscription bs WHERE bs.team_id = {a}.id), 'billing_provider') END`;

/** The team's Shopify workflow when the storefront bills the team (its latest), else null. */
export const SHOPIFY_BILLING_WORKFLOW_SQL = `(CASE WHEN EXISTS (SELECT 1 FROM subscription bs
    WHERE bs.team_id = {a}.id AND bs.provider = 'storefront')
  THEN ${latestTeamWorkflowSql('{a}.id', ['shopify', 'integration-shopify'])} END)`;

/**
 * Shipments per workspace and month of creation (UTC, `YYYY-MM`): a count the shipment table's
 * trigger keeps in the writer's transaction (maintained-counts.sql.ts, a derived count;
 * migration MonthlyShipmentCounts), so the monthly volume reads a few rows, exact in the
 * reader's snapshot, instead of counting the month's shipments (170 000 for a big merchant).
 */
export const MONTHLY_SHIPMENTS = {
  name: 'shipment_created_month',
  dimension: 'created_month',
  value: `to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM')`,
} as const;

/**
 * The monthly counts of the team `{a}`'s workspaces from this month on (a shipment dated
 * ahead counts, as `created_at >=` the month's start did).
 */
const MONTHLY_ROWS = `FROM ${COUNT_TABLE} bmc
 WHERE bmc.table_name = ${literal(MONTHLY_SHIPMENTS.name)}
   AND bmc.scope_id IN ${teamWorkspacesSql('{a}.id')}
   AND bmc.dimension = ${literal(MONTHLY_SHIPMENTS.dimension)}
   AND bmc.value >= to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM')`;

/** What counts against each entitlement (see plan-catalogue.ts). */
export const USAGE_SQL: Record<(typeof ENTITLEMENT_KEYS)[number], string> = {
  shipments: `(SELECT coalesce(sum(bmc.n), 0)::int ${MONTHLY_ROWS})`,
  workspaces: activeWorkspaceCountSql('{a}.id'),
  users: teamSeatCountSql('{a}.id'),
};

/**
 * Capacity of one entitlement: the live subscription's snapshot, else the free plan's; null
 * (unlimited) without billing.
 */
export function capacitySql(key: (typeof ENTITLEMENT_KEYS)[number]): string {
  return `CASE WHEN ${SELF_HOSTED_SQL} THEN NULL::int ELSE COALESCE((SELECT (bs.entitlements ->> ${literal(key)})::int FROM subscription bs
     WHERE bs.team_id = {a}.id AND ${LIVE_SUBSCRIPTION}), ${FREE_PLAN.capacities[key]}) END`;
}

/** `{shipments: {capacity, used, limitReached, limitExceeded, display, displayPlural}, ...}`. */
export const ENTITLEMENTS_SQL = `(SELECT jsonb_object_agg(be.key, jsonb_build_object(
  'capacity', be.capacity, 'used', be.used,
  'limitReached', COALESCE(be.used >= be.capacity, false),
  'limitExceeded', COALESCE(be.used > be.capacity, false),
  'display', be.display, 'displayPlural', be.display_plural))
 FROM (${ENTITLEMENT_KEYS.map(
   (key) =>
     `SELECT ${literal(key)} AS key, ${capacitySql(key)} AS capacity, ${USAGE_SQL[key]} AS used, ${literal(ENTITLEMENTS[key].display)} AS display, ${literal(ENTITLEMENTS[key].displayPlural)} AS display_plural`,
 ).join(' UNION ALL ')}) be)`;

/** The same SQL with the team alias bound. */
export function forTeamAlias(sql: string, alias: string): string {
  return sql.replace(/\{a\}/g, alias);
}

/** The same SQL for the team whose id is `team` (an SQL expression: a column, a parameter). */
export function forTeamId(sql: string, team: string): string {
  return sql.replace(/\{a\}\.id/g, team);
}

/**
 * Capacity and use of one entitlement of the team `$1` (uuid): one row, none when there is no
 * such team (EntitlementStore.use).
 */
export function entitlementUseSql(key: (typeof ENTITLEMENT_KEYS)[number]): string {
  return `SELECT ${forTeamId(capacitySql(key), '$1::uuid')} AS capacity,
                 ${forTeamId(USAGE_SQL[key], '$1::uuid')} AS used
           WHERE ${teamExistsSql('$1::uuid')}`;
}

/** The team of the workspace row `w` of the shipment create's first statement. */
const TEAM_OF_W = workspaceTeamSql('w');

/**
 * The monthly volume of the team of the workspace row `w`, as one JSON value (a select-list
 * entry of the create's first statement, see EntitlementsGuard.creationCheck): the team, the
 * plan's capacity (null: unlimited), the shipments of the month, and the delta rows summed
 * (`deltas`; with `scopes` and `months`, what to fold when they are many: COMPACT_COUNT_SQL).
 */
export const SHIPMENT_VOLUME_SQL = `(SELECT json_build_object(
    'team', ${TEAM_OF_W}, 'capacity', ${forTeamId(capacitySql('shipments'), TEAM_OF_W)},
    'used', v.used, 'deltas', v.deltas, 'scopes', v.scopes, 'months', v.months)
   FROM (SELECT coalesce(sum(bmc.n), 0)::int AS used,
        count(*)::int AS deltas, array_agg(DISTINCT bmc.scope_id) AS scopes,
        array_agg(DISTINCT bmc.value) AS months
   ${forTeamId(MONTHLY_ROWS, TEAM_OF_W)}) v)`;
