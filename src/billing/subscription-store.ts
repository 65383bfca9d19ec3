import { Injectable } from '@nestjs/common';
import { query, type SqlRunner } from '../database/query';
import type { Capacities } from './plan-catalogue';
import type {
  SubscriptionProvider,
  SubscriptionState,
  SubscriptionStatus,
} from './subscription-state';
import { LIVE_SUBSCRIPTION } from './team-billing-sql';

export interface StoredSubscription extends SubscriptionState {
  id: string;
  teamId: string;
  /** Grants its plan now (live status, trial not past its end). */
  live: boolean;
  lastEventAt: Date | null;
}

/** A subscription row as stored, with whether it is live. */
interface SubscriptionRow {
  id: string;
  team_id: string;
  provider: SubscriptionProvider;
  plan_id: string;
  plan_name: string;
  plan_type: string;
  status: SubscriptionStatus;
  billing_period: number | null;
  billing_period_unit: string | null;
  expires_at: Date | null;
  provider_subscription_id: string | null;
  provider_customer_id: string | null;
  addons_qty_by_key: Record<string, number> | null;
  entitlements: Capacities;
  unpaid_invoices: boolean;
  has_scheduled_changes: boolean;
  scheduled_plan_id: string | null;
  has_coupon_code: boolean;
  live: boolean;
  last_event_at: Date | null;
}

/** The subscription table's SQL: one subscription per team. */
@Injectable()
export class SubscriptionStore {
  /** The team's subscription, locked for the transaction when `lock`; null when it has none. */
  async find(runner: SqlRunner, teamId: string, lock = false): Promise<StoredSubscription | null> {
    const rows = await query<SubscriptionRow>(
      runner,
      `SELECT bs.*, ${LIVE_SUBSCRIPTION} AS live FROM subscription bs WHERE bs.team_id = $1${lock ? ' FOR UPDATE' : ''}`,
      [teamId],
    );
    return rows.length ? rowToSubscription(rows[0]) : null;
  }

  /**
   * The subscription the provider knows by this id (the billing provider's subscription, the
   * storefront's charge), locked for the transaction, or null.
   */
  async findByProviderId(
    runner: SqlRunner,
    providerSubscriptionId: string,
    provider: 'billing_provider' | 'storefront' = 'billing_provider',
  ): Promise<StoredSubscription | null> {
    const rows = await query<SubscriptionRow>(
      runner,
      `SELECT bs.*, ${LIVE_SUBSCRIPTION} AS live FROM subscription bs
        WHERE bs.provider = $2 AND bs.provider_subscription_id = $1 FOR UPDATE`,
      [providerSubscriptionId, provider],
    );
    return rows.length ? rowToSubscription(rows[0]) : null;
  }

  /** A move to `planId` at the end of the term, until the provider's webhook confirms it. */
  async scheduleChange(runner: SqlRunner, teamId: string, planId: string): Promise<void> {
    await query(
      runner,
      `UPDATE subscription SET has_scheduled_changes = true, scheduled_plan_id = $2, updated_at = now()
        WHERE team_id = $1`,
      [teamId, planId],
    );
  }

  /**
   * Writes the team's one subscription (insert or replace). `lastEventAt` (the time of the
   * event that decided it) is kept when null, unless `newEventClock`: a subscription taking
   * over from another starts its own event order.
   */
  async save(
    runner: SqlRunner,
    teamId: string,
    s: SubscriptionState,
    lastEventAt: Date | null = null,
    newEventClock = false,
  ): Promise<void> {
    await query(
      runner,
      `INSERT INTO subscription (team_id, provider, plan_id, plan_name, plan_type, status,
        billing_period, billing_period_unit, expires_at, provider_subscription_id,
        provider_customer_id, addons_qty_by_key, entitlements, unpaid_invoices,
        has_scheduled_changes, scheduled_plan_id, has_coupon_code, last_event_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
     ON CONFLICT (team_id) DO UPDATE SET
        provider = EXCLUDED.provider, plan_id = EXCLUDED.plan_id, plan_name = EXCLUDED.plan_name,
        plan_type = EXCLUDED.plan_type, status = EXCLUDED.status,
        billing_period = EXCLUDED.billing_period, billing_period_unit = EXCLUDED.billing_period_unit,
        expires_at = EXCLUDED.expires_at,
        provider_subscription_id = EXCLUDED.provider_subscription_id,
        provider_customer_id = COALESCE(EXCLUDED.provider_customer_id, subscription.provider_customer_id),
        addons_qty_by_key = EXCLUDED.addons_qty_by_key, entitlements = EXCLUDED.entitlements,
        unpaid_invoices = EXCLUDED.unpaid_invoices,
        has_scheduled_changes = EXCLUDED.has_scheduled_changes,
        scheduled_plan_id = CASE WHEN EXCLUDED.has_scheduled_changes
          THEN COALESCE(EXCLUDED.scheduled_plan_id, subscription.scheduled_plan_id) END,
        has_coupon_code = EXCLUDED.has_coupon_code,
        last_event_at = CASE WHEN $19 THEN EXCLUDED.last_event_at
          ELSE COALESCE(EXCLUDED.last_event_at, subscription.last_event_at) END,
        updated_at = now()`,
      [
        teamId,
        s.provider,
        s.planId,
        s.planName,
        s.planType,
        s.status,
        s.billingPeriod,
        s.billingPeriodUnit,
        s.expiresAt,
        s.providerSubscriptionId,
        s.providerCustomerId,
        JSON.stringify(s.addonsQtyByKey),
        JSON.stringify(s.entitlements),
        s.unpaidInvoices,
        s.hasScheduledChanges,
        s.scheduledPlanId,
        s.hasCouponCode,
        lastEventAt,
        newEventClock,
      ],
    );
  }
}

function rowToSubscription(r: SubscriptionRow): StoredSubscription {
  return {
    id: r.id,
    teamId: r.team_id,
    provider: r.provider,
    planId: r.plan_id,
    planName: r.plan_name,
    planType: r.plan_type,
    status: r.status,
    billingPeriod: r.billing_period,
    billingPeriodUnit: r.billing_period_unit,
    expiresAt: r.expires_at,
    providerSubscriptionId: r.provider_subscription_id,
    providerCustomerId: r.provider_customer_id,
    addonsQtyByKey: r.addons_qty_by_key ?? {},
    entitlements: r.entitlements,
    unpaidInvoices: r.unpaid_invoices,
    hasScheduledChanges: r.has_scheduled_changes,
    scheduledPlanId: r.scheduled_plan_id,
    hasCouponCode: r.has_coupon_code,
    live: r.live,
    lastEventAt: r.last_event_at,
  };
}
