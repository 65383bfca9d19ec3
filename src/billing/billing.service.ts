import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Principal } from '../access/principal';
import { Clock } from '../common/clock';
import { ApiError, ValidationError, ViolationCodes } from '../common/errors/api-errors';
import {
  BILLING_PROVIDER,
  BillingProvider,
  BillingProviderRefusal,
  BillingProviderUnavailable,
  Estimate,
  HostedPage,
  PortalSession,
  SubscriptionItem,
} from './billing-provider';
import { counterpartCall } from './counterpart-call';
import { EntitlementsGuard } from './entitlements-guard';
import {
  ADDONS,
  ENTITLEMENTS,
  Plan,
  TRIAL,
  capacitiesOf,
  isDowngrade,
  planById,
} from './plan-catalogue';
import { UserTrialStore } from '../users/user-trial-store';
import { CheckoutStore } from './checkout-store';
import { type StoredSubscription, SubscriptionStore } from './subscription-store';

export interface EstimateAnswer {
  createdAt: string | null;
  nextBillingAt: string | null;
  nextTotal: number | null;
  currencyCode: string | null;
  estimateItems: Estimate['items'];
}

/**
 * Subscription billing rules: the one trial per user, checkouts at the hosted-checkout provider,
 * the provider's self-service portal, estimates and scheduled downgrades (storefront charges:
 * storefront-billing.ts). Callers have checked that the principal administers the team. The subscription
 * itself changes here only for trials and scheduled downgrades; everything the provider decides
 * (payments, activations, renewals, cancellations) arrives through its webhook.
 */
@Injectable()
export class BillingService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(BILLING_PROVIDER) private readonly provider: BillingProvider,
    private readonly guard: EntitlementsGuard,
    private readonly clock: Clock,
    private readonly subscriptions: SubscriptionStore,
    private readonly checkouts: CheckoutStore,
    private readonly trials: UserTrialStore,
  ) {}

  /** Starts the team's trial of the trial plan; the user's one trial is spent. */
  async subscribeToTrial(principal: Principal, teamId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      if (await this.trials.redeemedLocked(em, principal.userId)) {
        throw ValidationError.of(
          'trialRedeemed',
          'You have already redeemed your free trial.',
          ViolationCodes.invalid,
        );
      }
      const current = await this.subscriptions.find(em, teamId, true);
      if (current?.live) {
        throw ValidationError.of(
          'teamId',
          `This team already has a subscription (${current.planName}, ${current.status}).`,
          ViolationCodes.invalid,
        );
      }
      if (current?.provider === 'trial') {
        throw ValidationError.of(
          'teamId',
          'This team has already had a free trial.',
          ViolationCodes.invalid,
        );
      }
      const plan = planById(TRIAL.planId)!;
      await this.subscriptions.save(em, teamId, {
        provider: 'trial',
        planId: plan.id,
        planName: plan.name,
        planType: plan.type,
        status: 'trialing',
        billingPeriod: TRIAL.days,
        billingPeriodUnit: 'day',
        expiresAt: this.clock.in(TRIAL.days * 86400),
        providerSubscriptionId: null,
        providerCustomerId: null,
        addonsQtyByKey: {},
        entitlements: capacitiesOf(plan),
        unpaidInvoices: false,
        hasScheduledChanges: false,
        scheduledPlanId: null,
        hasCouponCode: false,
      });
      await this.trials.redeem(em, principal.userId);
    });
  }

  /**
   * A hosted checkout page for the plan: a new subscription, or a change of the team's live
   * one. The customer at the provider is the team (customer id = team id).
   */
  async hostedCheckout(
    principal: Principal,
    teamId: string,
    plan: Plan,
    addonsQtyByKey: Record<string, number>,
    redirectUrl: string | null,
  ): Promise<HostedPage> {
    const current = await this.subscriptions.find(this.dataSource, teamId);
    this.refuseStorefrontBilled(current);
    const items = this.itemsOf(plan, addonsQtyByKey);
    const existing =
      current?.live && current.provider === 'billing_provider' && current.providerSubscriptionId;
    const page = await this.callProvider(() =>
      existing
        ? this.provider.checkoutExisting({ subscriptionId: existing, items, redirectUrl })
        : this.provider.checkoutNew({
            customerId: current?.providerCustomerId ?? teamId,
            customerEmail: principal.email,
            items,
            redirectUrl,
          }),
    );
    await this.checkouts.record(this.dataSource, {
      teamId,
      userId: principal.userId,
      provider: 'billing_provider',
      planId: plan.id,
      externalId: page.id,
      url: page.url,
    });
    return page;
  }

  /** A session of the provider's self-service portal for the team's billing account. */
  async portalSession(teamId: string, redirectUrl: string | null): Promise<PortalSession> {
    const current = await this.subscriptions.find(this.dataSource, teamId);
    let customerId = current?.provider === 'billing_provider' ? current.providerCustomerId : null;
    // A checkout made the team a customer (id = team id) even before its webhook arrived.
    if (!customerId && (await this.checkouts.hasProviderCheckout(this.dataSource, teamId)))
      customerId = current?.providerCustomerId ?? teamId;
    if (!customerId) {
      throw ValidationError.of(
        'teamId',
        'This team has no billing account yet: subscribe to a plan first.',
        ViolationCodes.invalid,
      );
    }
    return this.callProvider(() => this.provider.createPortalSession(customerId, redirectUrl));
  }

  /**
   * Schedules a move to a smaller plan at the end of the current term (nothing is refunded,
   * the current plan stays until then). Refused when the team uses more workspaces or seats
   * than the smaller plan allows.
   */
  async downgrade(teamId: string, plan: Plan): Promise<void> {
    const current = await this.subscriptions.find(this.dataSource, teamId);
    this.refuseStorefrontBilled(current);
    if (
      !current?.live ||
      current.provider !== 'billing_provider' ||
      !current.providerSubscriptionId
    )
      throw ValidationError.of(
        'teamId',
        'This team has no paid subscription to downgrade.',
        ViolationCodes.invalid,
      );
    const from = planById(current.planId);
    if (plan.id === current.planId || (from && !isDowngrade(from, plan))) {
      throw ValidationError.of(
        'planId',
        `The ${plan.name} plan is not smaller than the current ${current.planName} plan; use a checkout to upgrade.`,
        ViolationCodes.invalid,
      );
    }
    for (const key of ['workspaces', 'users'] as const) {
      const { used } = await this.guard.use(this.dataSource, teamId, key);
      if (used > plan.capacities[key]) {
        throw ValidationError.of(
          'planId',
          `The ${plan.name} plan allows ${plan.capacities[key]} ${ENTITLEMENTS[key].displayPlural}; the team has ${used}. Remove some first.`,
          ViolationCodes.invalid,
        );
      }
    }
    const subscriptionId = current.providerSubscriptionId;
    const items = this.itemsOf(plan, current.addonsQtyByKey);
    await this.callProvider(() => this.provider.changeSubscription(subscriptionId, items, true));
    // The provider's subscription_changed webhook follows; until then the schedule shows here.
    await this.subscriptions.scheduleChange(this.dataSource, teamId, plan.id);
  }

  /** What the team would pay next for the plan (and add-ons), from the provider. */
  async estimate(
    teamId: string,
    plan: Plan,
    addonsQtyByKey: Record<string, number>,
  ): Promise<EstimateAnswer> {
    const current = await this.subscriptions.find(this.dataSource, teamId);
    this.refuseStorefrontBilled(current);
    const items = this.itemsOf(plan, addonsQtyByKey);
    const existing =
      current?.live && current.provider === 'billing_provider' && current.providerSubscriptionId;
    const estimate = await this.callProvider(() =>
      existing
        ? this.provider.estimateChange(existing, items)
        : this.provider.estimateNew(current?.providerCustomerId ?? teamId, items),
    );
    const iso = (s: number | null) => (s === null ? null : new Date(s * 1000).toISOString());
    return {
      createdAt: iso(estimate.createdAt),
      nextBillingAt: iso(estimate.nextBillingAt),
      nextTotal: estimate.nextTotal,
      currencyCode: estimate.currencyCode,
      estimateItems: estimate.items,
    };
  }

  private refuseStorefrontBilled(current: StoredSubscription | null): void {
    if (current?.live && current.provider === 'storefront') {
      throw ValidationError.of(
        'teamId',
        'This team is billed through its storefront; change its plan there.',
        ViolationCodes.invalid,
      );
    }
  }

  private itemsOf(plan: Plan, addonsQtyByKey: Record<string, number>): SubscriptionItem[] {
    const items: SubscriptionItem[] = [{ itemPriceId: plan.providerPriceId!, quantity: 1 }];
    for (const [key, quantity] of Object.entries(addonsQtyByKey))
      if (quantity > 0) items.push({ itemPriceId: ADDONS[key].providerPriceId, quantity });
    return items;
  }

  /** Provider failures as API errors: not configured 503, refusals 422, outages 502. */
  private async callProvider<T>(call: () => Promise<T>): Promise<T> {
    if (!this.provider.configured)
      throw new ApiError(503, 'No billing provider is configured on this server.');
    return counterpartCall(
      {
        name: 'billing provider',
        refusal: BillingProviderRefusal,
        unavailable: BillingProviderUnavailable,
      },
      call,
    );
  }
}
