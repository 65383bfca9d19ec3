/**
 * The plans and entitlements teams subscribe to. This file is the catalogue: prices, limits and
 * the billing provider's item price ids live here and nowhere else (the provider's catalogue
 * must hold the same item price ids; the storefront app charges the price given here).
 *
 * Entitlements:
 * - `shipments`: shipments created in the team's workspaces in the current calendar month (UTC);
 * - `workspaces`: workspaces of the team (those scheduled for deletion excluded);
 * - `users`: seats of the team, members and pending invitations alike.
 *
 * A team without a live subscription (none, cancelled, or a trial past its end) has the free
 * plan. A subscription keeps a snapshot of its capacities (plan + add-ons) taken when it
 * changes, so a price-list edit never silently changes what a customer bought.
 */
export const ENTITLEMENT_KEYS = ['shipments', 'workspaces', 'users'] as const;
export type EntitlementKey = (typeof ENTITLEMENT_KEYS)[number];

export interface EntitlementSpec {
  display: string;
  displayPlural: string;
}

export const ENTITLEMENTS: Record<EntitlementKey, EntitlementSpec> = {
  shipments: { display: 'shipment per month', displayPlural: 'shipments per month' },
  workspaces: { display: 'workspace', displayPlural: 'workspaces' },
  users: { display: 'user', displayPlural: 'users' },
};

export type Capacities = Record<EntitlementKey, number>;

export interface Plan {
  id: string;
  name: string;
  /** `free` (no charge), `paid`. A trial is a paid plan with status trialing. */
  type: 'free' | 'paid';
  /** Price per billing period, in cents. */
  price: number;
  currency: string;
  billingPeriod: number;
  billingPeriodUnit: 'month' | 'year';
  capacities: Capacities;
  /** Item price id of the plan at the billing provider; null for the free plan. */
  providerPriceId: string | null;
}

export interface Addon {
  id: string;
  name: string;
  entitlement: EntitlementKey;
  /** Capacity added per unit. */
  amount: number;
  /** Price per unit and billing period, in cents. */
  price: number;
  providerPriceId: string;
}

export const PLANS: Record<string, Plan> = {
  free: {
    id: 'free',
    name: 'Free',
    type: 'free',
    price: 0,
    currency: 'USD',
    billingPeriod: 1,
    billingPeriodUnit: 'month',
    capacities: { shipments: 100, workspaces: 1, users: 2 },
    providerPriceId: null,
  },
  starter: {
    id: 'starter',
    name: 'Starter',
    type: 'paid',
    price: 1900,
    currency: 'USD',
    billingPeriod: 1,
    billingPeriodUnit: 'month',
    capacities: { shipments: 1000, workspaces: 2, users: 5 },
    providerPriceId: 'starter-USD-Monthly',
  },
  pro: {
    id: 'pro',
    name: 'Pro',
    type: 'paid',
    price: 9900,
    currency: 'USD',
    billingPeriod: 1,
    billingPeriodUnit: 'month',
    capacities: { shipments: 10000, workspaces: 10, users: 20 },
    providerPriceId: 'pro-USD-Monthly',
  },
  business: {
    id: 'business',
    name: 'Business',
    type: 'paid',
    price: 49900,
    currency: 'USD',
    billingPeriod: 1,
    billingPeriodUnit: 'month',
    capacities: { shipments: 100000, workspaces: 50, users: 100 },
    providerPriceId: 'business-USD-Monthly',
  },
};

export const ADDONS: Record<string, Addon> = {
  extra_shipments: {
    id: 'extra_shipments',
    name: '1,000 extra shipments per month',
    entitlement: 'shipments',
    amount: 1000,
    price: 1000,
    providerPriceId: 'extra-shipments-USD-Monthly',
  },
  extra_workspace: {
    id: 'extra_workspace',
    name: 'Extra workspace',
    entitlement: 'workspaces',
    amount: 1,
    price: 900,
    providerPriceId: 'extra-workspace-USD-Monthly',
  },
  extra_user: {
    id: 'extra_user',
    name: 'Extra user',
    entitlement: 'users',
    amount: 1,
    price: 500,
    providerPriceId: 'extra-user-USD-Monthly',
  },
};

export const FREE_PLAN = PLANS.free;

/** One trial per user: this plan, for this many days, with no payment details. */
export const TRIAL = { planId: 'pro', days: 14 } as const;

export function planById(id: string): Plan | undefined {
  return Object.prototype.hasOwnProperty.call(PLANS, id) ? PLANS[id] : undefined;
}

export function addonById(id: string): Addon | undefined {
  return Object.prototype.hasOwnProperty.call(ADDONS, id) ? ADDONS[id] : undefined;
}

export function planByProviderPriceId(priceId: string): Plan | undefined {
  return Object.values(PLANS).find((p) => p.providerPriceId === priceId);
}

export function addonByProviderPriceId(priceId: string): Addon | undefined {
  return Object.values(ADDONS).find((a) => a.providerPriceId === priceId);
}

/** The capacities of a plan with add-ons (unknown add-on keys count for nothing). */
export function capacitiesOf(plan: Plan, addonsQtyByKey: Record<string, number> = {}): Capacities {
  const out = { ...plan.capacities };
  for (const [key, qty] of Object.entries(addonsQtyByKey)) {
    const addon = addonById(key);
    if (addon && Number.isInteger(qty) && qty > 0) out[addon.entitlement] += addon.amount * qty;
  }
  return out;
}

/** Price of a plan with add-ons per billing period, in cents. */
export function priceOf(plan: Plan, addonsQtyByKey: Record<string, number> = {}): number {
  let total = plan.price;
  for (const [key, qty] of Object.entries(addonsQtyByKey)) {
    const addon = addonById(key);
    if (addon && Number.isInteger(qty) && qty > 0) total += addon.price * qty;
  }
  return total;
}

/** A change to a plan with a lower price or a smaller capacity of anything is a downgrade. */
export function isDowngrade(from: Plan, to: Plan): boolean {
  return (
    to.price < from.price || ENTITLEMENT_KEYS.some((k) => to.capacities[k] < from.capacities[k])
  );
}
