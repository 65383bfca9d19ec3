import type { ProviderSubscription } from './billing-provider';
import {
  Addon,
  Capacities,
  Plan,
  addonByProviderPriceId,
  capacitiesOf,
  planByProviderPriceId,
} from './plan-catalogue';

export type SubscriptionStatus = 'trialing' | 'active' | 'past_due' | 'cancelled';
export type SubscriptionProvider = 'trial' | 'billing_provider' | 'storefront';

/** A subscription row as the billing rules handle it. */
export interface SubscriptionState {
  provider: SubscriptionProvider;
  planId: string;
  planName: string;
  planType: string;
  status: SubscriptionStatus;
  billingPeriod: number | null;
  billingPeriodUnit: string | null;
  expiresAt: Date | null;
  providerSubscriptionId: string | null;
  providerCustomerId: string | null;
  addonsQtyByKey: Record<string, number>;
  entitlements: Capacities;
  unpaidInvoices: boolean;
  hasScheduledChanges: boolean;
  scheduledPlanId: string | null;
  hasCouponCode: boolean;
}

/**
 * The provider's status in ours. `in_trial` is trialing; `active` and `non_renewing` (cancels at
 * the term's end) are active, or past_due while invoices are unpaid (dunning); `paused`,
 * `cancelled` and `future` (not started yet) grant nothing: cancelled.
 */
export function statusOf(sub: ProviderSubscription, paymentFailed = false): SubscriptionStatus {
  switch (sub.status) {
    case 'in_trial':
      return 'trialing';
    case 'active':
    case 'non_renewing':
      return paymentFailed || sub.dueInvoicesCount > 0 ? 'past_due' : 'active';
    default:
      return 'cancelled';
  }
}

/** The catalogue plan and add-ons of a provider subscription's items; null: no known plan. */
export function planOfItems(
  items: ProviderSubscription['items'],
): { plan: Plan; addonsQtyByKey: Record<string, number> } | null {
  let plan: Plan | undefined;
  const addonsQtyByKey: Record<string, number> = {};
  for (const item of items) {
    const p = planByProviderPriceId(item.itemPriceId);
    if (p && item.itemType !== 'addon') {
      plan = p;
      continue;
    }
    const addon: Addon | undefined = addonByProviderPriceId(item.itemPriceId);
    if (addon) addonsQtyByKey[addon.id] = (addonsQtyByKey[addon.id] ?? 0) + item.quantity;
  }
  return plan ? { plan, addonsQtyByKey } : null;
}

/** The state a provider subscription puts the team in; null when its plan is not ours. */
export function stateFromProvider(
  sub: ProviderSubscription,
  paymentFailed = false,
): SubscriptionState | null {
  const found = planOfItems(sub.items);
  if (!found) return null;
  const { plan, addonsQtyByKey } = found;
  const end = sub.status === 'in_trial' ? (sub.trialEnd ?? sub.currentTermEnd) : sub.currentTermEnd;
  return {
    provider: 'billing_provider',
    planId: plan.id,
    planName: plan.name,
    planType: plan.type,
    status: statusOf(sub, paymentFailed),
    billingPeriod: sub.billingPeriod ?? plan.billingPeriod,
    billingPeriodUnit: sub.billingPeriodUnit ?? plan.billingPeriodUnit,
    expiresAt: end === null ? null : new Date(end * 1000),
    providerSubscriptionId: sub.id,
    providerCustomerId: sub.customerId,
    addonsQtyByKey,
    entitlements: capacitiesOf(plan, addonsQtyByKey),
    unpaidInvoices: paymentFailed || sub.dueInvoicesCount > 0,
    hasScheduledChanges: sub.hasScheduledChanges,
    scheduledPlanId: null,
    hasCouponCode: sub.hasCoupon,
  };
}
