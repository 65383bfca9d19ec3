/**
 * The hosted-checkout billing provider, as the billing module needs it. The production adapter
 * (HttpBillingProvider) speaks a Chargebee-like REST API; tests run it against a local server
 * speaking the same protocol. Field names of pages and sessions are the provider's (snake_case),
 * passed through to clients as the reference API does.
 */
export const BILLING_PROVIDER = Symbol('BillingProvider');

export interface SubscriptionItem {
  itemPriceId: string;
  quantity: number;
}

export interface HostedPage {
  id: string | null;
  type: string | null;
  url: string | null;
  state: string | null;
  embed: boolean | null;
  created_at: number | null;
  expires_at: number | null;
  updated_at: number | null;
  resource_version: number | null;
  object: string | null;
}

export interface PortalSession {
  id: string | null;
  token: string | null;
  access_url: string | null;
  status: string | null;
  created_at: number | null;
  expires_at: number | null;
  object: string | null;
  customer_id: string | null;
}

/** A subscription as the provider reports it (API answers and webhook contents). */
export interface ProviderSubscription {
  id: string;
  customerId: string | null;
  /** Provider status: future, in_trial, active, non_renewing, paused, cancelled. */
  status: string;
  items: Array<SubscriptionItem & { itemType: string | null }>;
  /** Unix seconds. */
  currentTermEnd: number | null;
  trialEnd: number | null;
  dueInvoicesCount: number;
  hasScheduledChanges: boolean;
  hasCoupon: boolean;
  billingPeriod: number | null;
  billingPeriodUnit: string | null;
}

export interface EstimateItem {
  description: string | null;
  entityId: string | null;
  quantity: number | null;
  /** In cents. */
  amount: number | null;
}

export interface Estimate {
  /** Unix seconds. */
  createdAt: number | null;
  nextBillingAt: number | null;
  /** In cents. */
  nextTotal: number | null;
  currencyCode: string | null;
  items: EstimateItem[];
}

export interface BillingProvider {
  /** Whether the deployment has a provider at all (URL and key configured). */
  readonly configured: boolean;
  checkoutNew(input: {
    customerId: string;
    customerEmail: string | null;
    items: SubscriptionItem[];
    redirectUrl: string | null;
  }): Promise<HostedPage>;
  checkoutExisting(input: {
    subscriptionId: string;
    items: SubscriptionItem[];
    redirectUrl: string | null;
  }): Promise<HostedPage>;
  createPortalSession(customerId: string, redirectUrl: string | null): Promise<PortalSession>;
  /** Replaces the subscription's items, now or at the end of the term. */
  changeSubscription(
    subscriptionId: string,
    items: SubscriptionItem[],
    endOfTerm: boolean,
  ): Promise<ProviderSubscription>;
  estimateNew(customerId: string, items: SubscriptionItem[]): Promise<Estimate>;
  estimateChange(subscriptionId: string, items: SubscriptionItem[]): Promise<Estimate>;
}

/** The provider answered with an error about the request (4xx): shown to the caller as 422. */
export class BillingProviderRefusal extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** The provider could not be reached or failed (network, timeout, 5xx): a 502. */
export class BillingProviderUnavailable extends Error {}
